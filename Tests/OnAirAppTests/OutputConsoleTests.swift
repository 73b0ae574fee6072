import Foundation
import OnAirTestSupport
import Testing

/// Issue 30 (4) in a real terminal (tmux): `onair publish` to two nginx-rtmp — `]` gives the output keys to
/// output 2 (its row marked ▸), `r` then reconnects output 2 only and `X` stops and starts it; back on
/// output 1, `X` is refused with the reason. Each key gives the command stdin gives, through the one gate:
/// the `--log` file's `output` events show what happened to which output.
@Suite("output keys in the console", .serialized)
struct OutputConsoleTests {
    /// The `output` events of output 2 in the `--log` file so far: their texts.
    static func outputTexts(_ log: URL) -> [String] {
        let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap { line in
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                  object["kind"] as? String == "output", let details = object["details"] as? [String: Any],
                  details["output"] as? Int == 2 else { return nil }
            return details["text"] as? String
        }
    }

    static func waitForLog(_ log: URL, within timeout: Duration, _ predicate: ([String]) -> Bool) async -> Bool {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if predicate(outputTexts(log)) { return true }
            try? await Task.sleep(for: .milliseconds(200))
        }
        return predicate(outputTexts(log))
    }

    @Test("] focuses output 2 (▸ on its row); r reconnects it alone; X stops and starts it; w there and X on output 1 are refused with the reason")
    func outputKeys() async throws {
        let servers = [try NginxRTMPServer(), try NginxRTMPServer()]
        let directory = try TemporaryDirectory()
        let log = directory.file("events.jsonl")
        let tmux = try TmuxSession(
            command: "\(OnAirBinary.url.path) publish \(servers[0].url(stream: "one")) \(servers[1].url(stream: "two")) --video test --audio test --size 320x240 --bitrate 500k --log \(log.path); echo ONAIR-EXIT=$?; sleep 60",
            width: 160, height: 48, directory: directory.url)
        let live = try await tmux.waitForScreen(timeout: .seconds(60)) { screen in
            screen.contains(" PUBLISHING ") && screen.split(separator: "\n").contains { $0.contains("output 2") && $0.contains("PUBLISHING") }
        }
        try #require(live.matched, "output 2 never PUBLISHING on screen:\n\(live.screen)")
        #expect(live.screen.contains("▸output 1") && !live.screen.contains("▸output 2"), "output 1 has the keys at first:\n\(live.screen)")

        try tmux.send("]")
        let focused = try await tmux.waitForScreen(timeout: .seconds(10)) { $0.contains("▸output 2") && $0.contains("output 2 has the keys") }
        #expect(focused.matched, "] did not focus output 2:\n\(focused.screen)")

        try tmux.send("r")
        #expect(await Self.waitForLog(log, within: .seconds(20)) { $0.contains("reconnect now") }, "r did not reconnect output 2: \(Self.outputTexts(log))")
        let again = try await tmux.waitForScreen(timeout: .seconds(30)) { screen in
            screen.split(separator: "\n").contains { line in
                line.contains("output 2") && line.contains("PUBLISHING") && (line.contains("rc 1") || line.contains("reconnects 1"))
            }
        }
        #expect(again.matched, "output 2 not PUBLISHING again with one reconnect:\n\(again.screen)")

        try tmux.send("X")
        #expect(await Self.waitForLog(log, within: .seconds(20)) { $0.contains("stopped") }, "X did not stop output 2: \(Self.outputTexts(log))")
        let stopped = try await tmux.waitForScreen(timeout: .seconds(10)) { $0.contains("STOPPED") }
        #expect(stopped.matched, "output 2's row does not say STOPPED:\n\(stopped.screen)")
        #expect(stopped.screen.split(separator: "\n").contains { $0.contains("output 1") && $0.contains("PUBLISHING") }, "output 1 left PUBLISHING:\n\(stopped.screen)")
        try tmux.send("X")
        let restarted = try await tmux.waitForScreen(timeout: .seconds(30)) { screen in
            !screen.contains("STOPPED") && screen.split(separator: "\n").contains { $0.contains("▸output 2") && $0.contains("PUBLISHING") }
        }
        #expect(restarted.matched, "X again did not bring output 2 back:\n\(restarted.screen)")
        // The link keys name the focused output: output 2 has no link stage, so `w` says so rather than
        // acting on output 1.
        try tmux.send("w")
        let linkRefused = try await tmux.waitForScreen(timeout: .seconds(10)) { $0.contains("output 2 has no link stage") }
        #expect(linkRefused.matched, "w on output 2 was not refused with the reason:\n\(linkRefused.screen)")

        try tmux.send("]")
        let first = try await tmux.waitForScreen(timeout: .seconds(10)) { $0.contains("▸output 1") }
        #expect(first.matched, "] after the last output did not come back to output 1:\n\(first.screen)")
        try tmux.send("X")
        let refused = try await tmux.waitForScreen(timeout: .seconds(10)) { $0.contains("output 1 is the publisher's own connection") }
        #expect(refused.matched, "X on output 1 was not refused with the reason:\n\(refused.screen)")
        try tmux.send("x")
        try tmux.send("q")
    }
}
