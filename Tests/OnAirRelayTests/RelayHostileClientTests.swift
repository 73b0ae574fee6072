import Foundation
import OnAirTestSupport
import Testing

/// GitHub issue 14's hostile clients against the real `onair serve` binary: raw-socket attackers written in
/// Python (Tests/Hostile/hostile.py, which also measures), one test per item 1–5 and 8. Each asserts that
/// the relay stays up and still accepts a client, that its RSS stays under ``rssBoundMB``, that a healthy
/// player on another stream keeps ≥ 90 % of its rate during the attack, and the attack's own findings
/// (the right `rejected` event, no raw escape in the log, whole tags on a full disk …).
@Suite("Relay hostile clients", .serialized)
struct RelayHostileClientTests {
    static let rssBoundMB = 200.0
    static let minimumRateRatio = 0.9

    private static var script: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Hostile/hostile.py").path     // Tests/Hostile/hostile.py
    }

    /// Runs one attack and checks the common bounds; returns the script's result for attack-specific checks.
    @discardableResult
    private static func run(_ attack: String) async throws -> [String: Any] {
        let directory = try TemporaryDirectory(prefix: "onair-hostile")
        let result = try await PeerProcess.run(
            "python3", [script, attack, "--onair", RelayServeCommandTests.binary], in: directory.url, timeout: .seconds(180))
        try #require(result.status == 0, "hostile.py \(attack) failed: \(result.error)")
        let line = try #require(result.output.split(separator: "\n").last, "no result from hostile.py: \(result.error)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        print("hostile \(attack): \(line)")
        #expect(json["alive"] as? Bool == true, "the relay died or stopped accepting: \(line)")
        let rss = json["rssPeakMB"] as? Double ?? .infinity
        #expect(rss < rssBoundMB, "relay RSS peaked at \(rss) MB: \(line)")
        let ratio = json["ratio"] as? Double ?? 0
        #expect(ratio >= minimumRateRatio, "the healthy player got \(ratio) of its rate: \(line)")
        let checks = json["checks"] as? [String: Bool] ?? [:]
        for (name, passed) in checks.sorted(by: { $0.key < $1.key }) {
            #expect(passed, "\(attack): \(name) failed: \(line)")
        }
        return json
    }

    @Test("1: record / append / append with timestamps at the 32-bit edge never crashes the relay")
    func appendOverflow() async throws { try await Self.run("append-overflow") }

    @Test("2: one connection playing a live stream on 5000 message stream IDs is refused after a handful")
    func multiPlay() async throws { try await Self.run("multi-play") }

    @Test("3: a ping flood from a client that reads nothing is cut off at the control-answer cap")
    func pingFlood() async throws { try await Self.run("ping-flood") }

    @Test("4: idle connected sockets past the descriptor limit: accept backs off, idle ones are closed")
    func idleSockets() async throws { try await Self.run("idle-sockets") }

    @Test("4: unfinished messages on 60 chunk streams are bounded per connection")
    func partialMessages() async throws { try await Self.run("partial-messages") }

    @Test("5: names with terminal escapes and keys are logged escaped and without the key")
    func names() async throws { try await Self.run("names") }

    @Test("8: a full disk leaves whole tags; a deleted recording is an error event",
          .enabled(if: getuid() == 0, "needs root to mount a 200 KB tmpfs as the record directory"))
    func fullDisk() async throws { try await Self.run("full-disk") }
}
