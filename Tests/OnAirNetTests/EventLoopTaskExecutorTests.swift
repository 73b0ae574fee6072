import Foundation
import NIOCore
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
}
