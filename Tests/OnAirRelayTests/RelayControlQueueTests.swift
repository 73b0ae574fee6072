import Foundation
@testable import OnAirRelay
import OnAirTestSupport
import Testing

/// GitHub issue 14 item 3: protocol answers a client never reads are capped; past the cap the connection is
/// closed with a `control-queue-full` rejection (a ping or play flood grew the relay by 2 GB before).
@Suite("Relay control-answer cap", .serialized)
struct RelayControlQueueTests {
    @Test("a client that pings and plays but never reads is closed once its unread answers pass the cap")
    func unreadAnswersAreCapped() async throws {
        let cap = 4096
        let harness = try await RelayTestHarness {
            $0.maxQueuedControlBytes = cap
            $0.writeBufferWaterMark = .init(low: 1024, high: 2048)
            $0.socketSendBufferSize = 4096
        }
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Hostile/unread_answers.py").path     // Tests/Hostile/unread_answers.py
        let client = try await PeerProcess.run("python3", [script, "\(harness.port)"], in: harness.directory.url, timeout: .seconds(60))
        #expect(client.output.contains("closed by the relay"), "\(client.output) \(client.error)")
        let rejection = try await harness.events.first { event in
            if case .connectionRejected(_, _, .controlQueueFull) = event { true } else { false }
        }
        if case .connectionRejected(_, _, .controlQueueFull(let bytes, let limit)) = rejection {
            #expect(limit == cap)
            #expect(bytes > cap && bytes < cap + 1024, "closed at \(bytes) bytes, one answer past the cap")
        }
        #expect(!harness.events.all.contains { if case .connectionRejected(_, _, .requestFlood) = $0 { true } else { false } })
        await harness.stop()
    }
}
