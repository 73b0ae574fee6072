import Foundation
@testable import OnAirLink
import Synchronization
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Issue 32: the link stage changes timing only. Whatever crosses it, either way, arrives byte for byte,
/// so nothing a client sends (connect's fields, the TLS handshake, media) can differ from a direct session.
@Suite("Link stage transparency", .timeLimit(.minutes(1)))
struct LinkStageTransparencyTests {
    /// Reads exactly `count` bytes from a blocking socket (nil on EOF or error, or after its 20 s timeout).
    static func read(_ fd: Int32, count: Int) -> [UInt8]? {
        var out = [UInt8](repeating: 0, count: count)
        var filled = 0
        while filled < count {
            let got = out.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress! + filled, count - filled) }
            if got < 0, errno == EINTR { continue }
            guard got > 0 else { return nil }
            filled += got
        }
        return out
    }

    static func write(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
        var sent = 0
        while sent < bytes.count {
            let put = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + sent, bytes.count - sent) }
            if put < 0, errno == EINTR { continue }
            guard put > 0 else { return false }
            sent += put
        }
        return true
    }

    static func withTimeout(_ fd: Int32) {
        var limit = timeval(tv_sec: 20, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
    }

    @Test("every byte crosses the stage unchanged, both ways, every byte value")
    func forwardsBytesUnchanged() throws {
        var generator = SystemRandomNumberGenerator()
        let upstream = (0..<(1 << 20)).map { _ in UInt8.random(in: 0...255, using: &generator) } + Array(0...255)
        let downstream = (0..<(300 << 10)).map { _ in UInt8.random(in: 0...255, using: &generator) } + Array(0...255)
        let (listener, port) = try LinkSocket.listen(port: 0, receiveBuffer: 64 << 10)
        defer { close(listener) }
        let received = Mutex<[UInt8]?>(nil)
        let served = DispatchSemaphore(value: 0)
        Thread {
            defer { served.signal() }
            let peer = accept(listener, nil, nil)
            guard peer >= 0 else { return }
            defer { close(peer) }
            Self.withTimeout(peer)
            let bytes = Self.read(peer, count: upstream.count)
            received.withLock { $0 = bytes }
            _ = Self.write(peer, downstream)
        }.start()

        let stage = try LinkImpairment(targetHost: "127.0.0.1", targetPort: port)
        defer { stage.stop() }
        let client = try #require(LinkSocket.connect(host: "127.0.0.1", port: stage.port))
        defer { close(client) }
        Self.withTimeout(client)
        let wrote = Self.write(client, upstream)
        #expect(wrote, "the stage did not take the client's bytes: \(stage.counters)")
        let answer = wrote ? Self.read(client, count: downstream.count) : nil
        // Bounded: the server's reads and writes time out after 20 s each.
        #expect(served.wait(timeout: .now() + 60) == .success)
        #expect(received.withLock { $0 } == upstream, "the server received other bytes than the client sent")
        #expect(answer == downstream, "the client received other bytes than the server sent")
        #expect(stage.counters.upstreamBytes == upstream.count)
        #expect(stage.counters.downstreamBytes == downstream.count)
    }
}
