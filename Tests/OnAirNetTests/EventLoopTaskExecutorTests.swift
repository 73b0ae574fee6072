import Foundation
import NIOCore
import NIOEmbedded
import NIOPosix
import OnAirCore
import OnAirTestSupport
import Synchronization
import Testing
@testable import OnAirNet

/// Issue 31: the media pump runs on the event loop of the connection it writes to, so a batch wakes one
/// thread, not three; between connections it runs on a fixed loop of NIO's singleton group.
@Suite("EventLoopTaskExecutor: a task on its connection's event loop", .serialized, .timeLimit(.minutes(2)))
struct EventLoopTaskExecutorTests {
    @Test("a task following a publisher runs on its connection's loop once it publishes, on NIO's group before")
    func followsThePublishingConnection() async throws {
        let nginx = try NginxRTMPServer()
        defer { nginx.stop() }
        let publisher = RTMPPublisher(url: try StreamURL(nginx.url(stream: "loop")))
        let current = Mutex<RTMPPublisher?>(nil)
        let executor = EventLoopTaskExecutor.following { current.withLock { $0 } }
        // Before a publisher is followed: a singleton loop's thread (never the task pool).
        let before = await Task(executorPreference: executor) { () async -> Bool in
            await Task.yield()
            return MultiThreadedEventLoopGroup.singleton.makeIterator().contains { $0.inEventLoop }
        }.value
        #expect(before)

        let sps: [UInt8] = [0x67, 0x42, 0xC0, 0x1E, 0xDA, 0x02, 0x80, 0xBF, 0xE5, 0x84]
        let pps: [UInt8] = [0x68, 0xCE, 0x3C, 0x80]
        let video = VideoTrackDescription(width: 640, height: 360, framesPerSecond: 30, bitrate: 1_000_000,
                                          sequenceParameterSets: [sps], pictureParameterSets: [pps])
        try await publisher.start(video: video, audio: nil)
        current.withLock { $0 = publisher }
        let loop = try #require(publisher.eventLoop)
        // Every job of the task — the first, and each one after an await of a send — runs on that loop.
        let onLoop = try await Task(executorPreference: executor) { () async throws -> [Bool] in
            var seen = [loop.inEventLoop]
            for index in 0..<5 {
                let packet = EncodedPacket(kind: .video, decodeTimestamp: Int64(index * 33), isKeyframe: index == 0, payload: [0, 0, 0, 1, 0x65, 0x88])
                try await publisher.send([packet])
                seen.append(loop.inEventLoop)
            }
            return seen
        }.value
        #expect(onLoop == Array(repeating: true, count: 6))
        await publisher.stop()
    }

    /// Issue 31: the TCP_INFO sampler's 100 ms sleep is a timer of the loop (its `epoll_wait` timeout), not
    /// `Task.sleep`'s, which woke the dispatch manager and a pool thread for each tick. On a test loop whose
    /// clock only moves when told, an hour's sleep ends when the loop's clock passes the hour: a sleep on any
    /// other clock would not end within the test's limit.
    @Test("sleep(for:) is a timer of the followed loop: it ends when that loop's clock passes the deadline")
    func sleepsOnTheLoopsTimer() async throws {
        let loop = NIOAsyncTestingEventLoop()
        let executor = EventLoopTaskExecutor { loop }
        // Whether the sleeper woke, and on the loop: set by its job after the sleep.
        let woke = SleeperFlag()
        let sleeper = Task(executorPreference: executor) {
            await executor.sleep(for: .seconds(3600))
            let onLoop = loop.inEventLoop
            woke.value.withLock { $0 = onLoop }
        }
        // Until the sleeper has armed its timer, moving the clock does nothing: move it again until it wakes.
        let limit = ContinuousClock.now + .seconds(30)
        while !woke.value.withLock({ $0 }), ContinuousClock.now < limit {
            await loop.advanceTime(by: .hours(1))
            try await Task.sleep(for: .milliseconds(5))
        }
        let wokeOnLoop = woke.value.withLock { $0 }
        #expect(wokeOnLoop, "the sleep did not end with the loop's clock (and its next job ran on the loop)")
        sleeper.cancel()
        await sleeper.value
        await loop.shutdownGracefully()
    }

    @Test("a cancelled sleep(for:) returns at once, on a real loop")
    func cancelledSleepReturns() async throws {
        let loop = MultiThreadedEventLoopGroup.singleton.next()
        let executor = EventLoopTaskExecutor { loop }
        let started = ContinuousClock.now
        let sleeper = Task(executorPreference: executor) { await executor.sleep(for: .seconds(3600)) }
        try await Task.sleep(for: .milliseconds(20))
        sleeper.cancel()
        await sleeper.value
        #expect(ContinuousClock.now - started < .seconds(600))
    }
}

/// A flag the sleeping task sets and the test reads.
private final class SleeperFlag: Sendable {
    let value = Mutex(false)
}
