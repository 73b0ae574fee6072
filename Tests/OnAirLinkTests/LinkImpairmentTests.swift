import Foundation
import OnAirCore
@testable import OnAirLink
@testable import OnAirLink
import OnAirNet
import OnAirTestSupport
import Synchronization
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The link impairment stage between a real RTMP publisher and a real nginx-rtmp, on loopback.
@Suite("link impairment stage against nginx-rtmp", .serialized, .timeLimit(.minutes(3)))
struct LinkImpairmentTests {
    /// A publisher through the stage, sending 8 KiB video frames as fast as the link takes them.
    final class Feed: Sendable {
        final class Progress: Sendable {
            let failure = Mutex<String?>(nil)
            let sent = Atomic(0)
        }

        let publisher: RTMPPublisher
        let progress = Progress()
        private let task = Mutex<Task<Void, Never>?>(nil)
        var failure: String? { progress.failure.withLock { $0 } }
        var sent: Int { progress.sent.load(ordering: .relaxed) }

        init(stagePort: Int, stream: String) async throws {
            publisher = RTMPPublisher(url: try StreamURL("rtmp://127.0.0.1:\(stagePort)/live/\(stream)"))
            let video = VideoTrackDescription(
                width: 640, height: 360, framesPerSecond: 30, bitrate: 1_000_000,
                sequenceParameterSets: [[0x67, 0x42, 0xC0, 0x1E, 0xDA, 0x02, 0x80, 0xBF, 0xE5, 0x84]],
                pictureParameterSets: [[0x68, 0xCE, 0x3C, 0x80]])
            try await publisher.start(video: video, audio: nil)
            let payload: [UInt8] = [0, 0, 0, 1, 0x65] + Array(repeating: 0xAB, count: 8 << 10)
            let publisher = publisher, progress = progress
            let feeding = Task {
                var index = 0
                while !Task.isCancelled {
                    do {
                        try await publisher.send([EncodedPacket(kind: .video, decodeTimestamp: Int64(index * 33), isKeyframe: index % 60 == 0, payload: payload)])
                        progress.sent.add(1, ordering: .relaxed)
                        index += 1
                    } catch {
                        progress.failure.withLock { $0 = "\(error)" }
                        return
                    }
                }
            }
            task.withLock { $0 = feeding }
        }

        func stop() async {
            task.withLock { $0?.cancel() }
            await publisher.stop()
        }
    }

    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    /// bit/s delivered to the server over `window`.
    static func measureUpstream(_ stage: LinkImpairment, over window: Duration) async throws -> Double {
        let clock = ContinuousClock()
        let startBytes = stage.counters.upstreamBytes
        let start = clock.now
        try await Task.sleep(for: window)
        let bytes = stage.counters.upstreamBytes - startBytes
        return Double(bytes * 8) / seconds(clock.now - start)
    }

    /// The cap's defining property, never more than the cap (+15 % for the bucket's burst and the window's
    /// edges), is held strictly. Below it the sender (an async publisher, one 8 KiB write at a time) must keep
    /// the link busy, which on a loaded 2-core machine (make test runs tests four at a time) it may not: one
    /// run delivered 313 kbit/s of an 800k cap, while unloaded runs deliver 799k and 2 998k. So the lower bound
    /// only fails a stage that passes almost nothing; `make bench`-style precision is for a quiet machine.
    @Test("link-cap holds the delivered rate at the cap: never 15 % above, and data flows under it", arguments: [800_000, 3_000_000])
    func cap(bitsPerSecond: Int) async throws {
        let nginx = try NginxRTMPServer()
        defer { nginx.stop() }
        let stage = try LinkImpairment(targetHost: "127.0.0.1", targetPort: nginx.port, state: .init(capBitsPerSecond: bitsPerSecond))
        defer { stage.stop() }
        let feed = try await Feed(stagePort: stage.port, stream: "cap")
        try await Task.sleep(for: .seconds(1))
        let measured = try await Self.measureUpstream(stage, over: .seconds(4))
        let failure = feed.failure
        await feed.stop()
        print("link-cap \(LinkCommand.rateText(bitsPerSecond)): \(Int(measured / 1000)) kbit/s delivered to nginx")
        #expect(measured <= Double(bitsPerSecond) * 1.15, "measured \(measured): above the cap")
        #expect(measured >= Double(bitsPerSecond) * 0.25, "measured \(measured): far below the cap")
        #expect(failure == nil, "the publisher failed under a cap: \(failure ?? "")")
    }

    @Test("link-down holds every byte with the socket open; link-up resumes the same connection")
    func downAndUp() async throws {
        let nginx = try NginxRTMPServer()
        defer { nginx.stop() }
        let stage = try LinkImpairment(targetHost: "127.0.0.1", targetPort: nginx.port, state: .init(capBitsPerSecond: 2_000_000))
        defer { stage.stop() }
        let feed = try await Feed(stagePort: stage.port, stream: "elevator")
        try await Task.sleep(for: .milliseconds(500))
        #expect(stage.apply(.down).isUp == false)
        try await Task.sleep(for: .milliseconds(200))
        let held = stage.counters
        let sentAtDown = feed.sent
        try await Task.sleep(for: .seconds(2))
        let during = stage.counters
        #expect(during.upstreamBytes == held.upstreamBytes, "bytes reached the server while the link was down")
        #expect(during.downstreamBytes == held.downstreamBytes, "bytes reached the client while the link was down")
        #expect(during.connectionsOpen == 1 && during.connectionsReset == 0, "the connection must stay open")
        // What the client sent and the stage has not read is counted (ABR's queue includes it).
        #expect(during.upstreamWaitingBytes > 0, "the client's bytes waiting in the stage's socket were not counted")
        #expect(feed.failure == nil, "the publisher saw an error while the link was down")
        // The client's socket filled and its writes wait: it cannot have sent 2 s of unlimited frames.
        let sentWhileDown = feed.sent - sentAtDown
        #expect(sentWhileDown < 64, "the publisher kept writing into a dead link: \(sentWhileDown) frames")
        stage.apply(.up)
        let resumed = try await Self.measureUpstream(stage, over: .seconds(2))
        print("link-down 2 s: \(sentWhileDown) frames of 8 KiB accepted by the client while down, \(during.heldBytes) bytes in the stage; after link-up \(Int(resumed / 1000)) kbit/s")
        #expect(resumed > 1_000_000, "the link did not resume: \(resumed) bit/s")
        let after = stage.counters
        #expect(after.connectionsAccepted == 1 && after.connectionsReset == 0, "link-up must resume, not reconnect")
        #expect(feed.failure == nil)
        await feed.stop()
    }

    @Test("handoff resets the client's connection; a new connection takes the new path's cap")
    func handoff() async throws {
        let nginx = try NginxRTMPServer()
        defer { nginx.stop() }
        let stage = try LinkImpairment(targetHost: "127.0.0.1", targetPort: nginx.port, state: .init(capBitsPerSecond: 3_000_000))
        defer { stage.stop() }
        let feed = try await Feed(stagePort: stage.port, stream: "wifi")
        try await Task.sleep(for: .milliseconds(500))
        let state = stage.apply(.handoff(capBitsPerSecond: 800_000, delay: .milliseconds(40)))
        #expect(state.path == 1 && state.capBitsPerSecond == 800_000)
        var closedWith: RTMPClient.Error?? = nil
        for await event in feed.publisher.events {
            if case let .closed(error) = event {
                closedWith = error
                break
            }
        }
        #expect(closedWith != nil, "the publisher never saw its connection end")
        #expect(closedWith! != nil, "the old path must end in an error, not a clean close")
        #expect(stage.counters.connectionsReset == 1)
        // Issue 28 (9): the operator reads that the stage did it, in whole sentences, no syscall text.
        #expect(stage.targetFailure == LinkImpairment.handoffReason)
        #expect(("00:46.234 ERR  connection lost: " + LinkImpairment.handoffReason).count <= 78, "whole on an 80-column log")
        if case let error?? = closedWith {
            let text = error.description
            #expect(!text.contains("broke the RTMP protocol") && !text.contains("descriptor") && !text.contains("errno"), "\(text)")
            #expect(text.filter { $0 == "(" }.count == text.filter { $0 == ")" }.count, "\(text)")
        }
        await feed.stop()
        let cellular = try await Feed(stagePort: stage.port, stream: "cellular")
        try await Task.sleep(for: .seconds(1))
        let measured = try await Self.measureUpstream(stage, over: .seconds(3))
        print("after handoff: \(Int(measured / 1000)) kbit/s on the new path (cap 800k)")
        #expect(abs(measured - 800_000) / 800_000 <= 0.15)
        #expect(stage.counters.connectionsAccepted == 2)
        await cellular.stop()
    }

    @Test("link-delay adds its latency each way: the RTMP handshake's first reply comes one round trip later")
    func delay() async throws {
        let nginx = try NginxRTMPServer()
        defer { nginx.stop() }
        let stage = try LinkImpairment(targetHost: "127.0.0.1", targetPort: nginx.port)
        defer { stage.stop() }
        let direct = try Self.handshakeReplyTime(port: stage.port)
        stage.apply(.delay(.milliseconds(250)))
        let delayed = try Self.handshakeReplyTime(port: stage.port)
        print("handshake reply through the stage: \(Int(direct * 1000)) ms, with link-delay 250: \(Int(delayed * 1000)) ms")
        #expect(direct < 0.2)
        #expect(delayed >= 0.5 && delayed < 0.5 + 0.3, "a 250 ms delay each way should add 500 ms: \(delayed)")
    }

    @Test("a connection opened while the link is down waits, open, and reaches the server after link-up")
    func connectWhileDown() async throws {
        let nginx = try NginxRTMPServer()
        defer { nginx.stop() }
        let stage = try LinkImpairment(targetHost: "127.0.0.1", targetPort: nginx.port, state: .init(isUp: false))
        defer { stage.stop() }
        guard let fd = FreePort.connectLoopback(stage.port) else { throw POSIXError(.ECONNREFUSED) }
        defer { close(fd) }
        var timeout = timeval(tv_sec: 0, tv_usec: 800_000)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let hello = [UInt8(3)] + [UInt8](repeating: 0, count: 1536)
        #expect(hello.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, 0) } == hello.count)
        var reply: UInt8 = 0
        #expect(recv(fd, &reply, 1, 0) == -1 && (errno == EAGAIN || errno == EWOULDBLOCK), "a reply came through a down link")
        #expect(stage.counters.upstreamBytes == 0 && stage.counters.connectionsOpen == 1)
        stage.apply(.up)
        timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        #expect(recv(fd, &reply, 1, 0) == 1 && reply == 3, "no handshake reply after link-up")
        #expect(stage.counters.upstreamBytes == hello.count)
    }

    /// Seconds from sending C0+C1 to the first byte of S0, on a plain blocking socket.
    static func handshakeReplyTime(port: Int) throws -> Double {
        guard let fd = FreePort.connectLoopback(port) else { throw POSIXError(.ECONNREFUSED) }
        defer { close(fd) }
        let hello = [UInt8(3)] + [UInt8](repeating: 0, count: 1536)
        let clock = ContinuousClock()
        let start = clock.now
        guard hello.withUnsafeBytes({ send(fd, $0.baseAddress, $0.count, 0) }) == hello.count else { throw POSIXError(.EIO) }
        var reply: UInt8 = 0
        guard recv(fd, &reply, 1, 0) == 1, reply == 3 else { throw POSIXError(.EIO) }
        return seconds(clock.now - start)
    }
}
