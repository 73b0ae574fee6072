import Foundation
@testable import OnAirLink
import OnAirTestSupport
import Synchronization
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Issue 29 item 4: the link stage serves only its own client. A neighbour process on the machine that
/// connects to its loopback port is closed at accept — nothing reaches the server, nothing is counted —
/// and however many connections arrive, at most `LinkImpairment.maxConnections` are forwarded.
@Suite("Link stage admission", .timeLimit(.minutes(1)))
struct LinkStageAdmissionTests {
    /// A loopback listener that counts the connections it accepts (what the stage forwarded).
    final class CountingServer: Sendable {
        let listener: Int32
        let port: Int
        let accepted = Atomic<Int>(0)
        private let done = DispatchSemaphore(value: 0)

        init() throws {
            (listener, port) = try LinkSocket.listen(port: 0, receiveBuffer: 64 << 10)
            Thread { [self] in
                defer { done.signal() }
                while true {
                    let peer = accept(listener, nil, nil)
                    guard peer >= 0 else { return }
                    accepted.add(1, ordering: .relaxed)
                    // Held open (never read) until the test ends; closed with the process.
                }
            }.start()
        }

        func stop() {
            shutdown(listener, Int32(SHUT_RDWR))
            close(listener)
            _ = done.wait(timeout: .now() + 5)
        }
    }

    /// Polls `condition` every 10 ms for up to 20 s: waiting for the stage's accept thread, not for time.
    static func eventually(_ condition: () -> Bool) -> Bool {
        let deadline = ContinuousClock.now + .seconds(20)
        while ContinuousClock.now < deadline {
            if condition() { return true }
            usleep(10_000)
        }
        return condition()
    }

    @Test("a neighbour process's connection is refused at accept: the server never sees it, no byte is counted")
    func neighbourRefused() async throws {
        let server = try CountingServer()
        defer { server.stop() }
        let stage = try LinkImpairment(targetHost: "127.0.0.1", targetPort: server.port)
        defer { stage.stop() }
        let directory = try TemporaryDirectory(prefix: "onair-neighbour")
        // The neighbour sends 100 kB and waits for the stage to answer or close (it closes).
        let script = """
            import socket
            try:
                s = socket.create_connection(("127.0.0.1", \(stage.port)), timeout=20)
                s.sendall(b"x" * 100000)
                print("read", len(s.recv(1)))
            except OSError as error:
                print("closed", error)
            """
        let result = try await PeerProcess.run("python3", ["-c", script], in: directory.url, timeout: .seconds(30))
        #expect(result.status == 0, "\(result.error)")
        #expect(Self.eventually { stage.counters.connectionsRefused == 1 })
        let counters = stage.counters
        #expect(counters.connectionsAccepted == 0 && counters.upstreamBytes == 0 && counters.upstreamWaitingBytes == 0)
        #expect(server.accepted.load(ordering: .relaxed) == 0, "the neighbour reached the server through the stage")

        // The stage's own process still goes through.
        let own = try #require(LinkSocket.connect(host: "127.0.0.1", port: stage.port))
        defer { close(own) }
        #expect(Self.eventually { server.accepted.load(ordering: .relaxed) == 1 })
        #expect(stage.counters.connectionsAccepted == 1)
    }

    @Test("at most maxConnections are forwarded at once; the rest are refused, no thread each")
    func connectionsBounded() throws {
        let server = try CountingServer()
        defer { server.stop() }
        let stage = try LinkImpairment(targetHost: "127.0.0.1", targetPort: server.port)
        defer { stage.stop() }
        let attempts = LinkImpairment.maxConnections + 12
        var sockets: [Int32] = []
        defer { sockets.forEach { close($0) } }
        for _ in 0..<attempts {
            if let socket = LinkSocket.connect(host: "127.0.0.1", port: stage.port) { sockets.append(socket) }
        }
        #expect(Self.eventually { stage.counters.connectionsAccepted + stage.counters.connectionsRefused == attempts })
        #expect(stage.counters.connectionsAccepted == LinkImpairment.maxConnections)
        #expect(stage.counters.connectionsRefused == attempts - LinkImpairment.maxConnections)
        #expect(Self.eventually { server.accepted.load(ordering: .relaxed) == LinkImpairment.maxConnections })
    }
}
