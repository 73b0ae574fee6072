import Foundation
import OnAirTestSupport
import Testing

/// What a session leaves behind: `--log FILE`, the summary on exit, and where the demo's recordings go.
@Suite("session outputs: --log, summary, recordings directory", .serialized)
struct SessionOutputTests {
    @Test("--log FILE with --headless holds exactly the events printed on stdout")
    func logFileHeadless() throws {
        let port = try FreePort.loopback()
        let directory = try TemporaryDirectory()
        let serve = try PeerProcess(OnAirBinary.url.path, ["serve", "--listen", "127.0.0.1:\(port)", "--headless"], in: directory.url)
        defer { _ = serve.stop() }
        try FreePort.waitUntilAccepting(port, timeout: .seconds(30), what: "onair serve")
        let log = directory.url.appendingPathComponent("events.jsonl")
        // The run must publish before --duration ends it: 10 s, 20× an idle start (was 2 s; issue 24).
        let result = try OnAirBinary.run(
            ["publish", "rtmp://127.0.0.1:\(port)/live/logged", "--headless", "--size", "320x180", "--duration", "10s", "--log", log.path])
        #expect(result.status == 0, "\(result.standardError)")
        let written = try String(contentsOf: log, encoding: .utf8)
        #expect(written == result.standardOutput)
        #expect(written.contains("NetStream.Publish.Start"))
    }

    @Test("--log FILE in a directory that does not exist is one usage line")
    func logFileUnwritable() throws {
        let result = try OnAirBinary.run(["publish", "rtmp://127.0.0.1:1/live/x", "--headless", "--log", "/nonexistent/dir/events.jsonl"])
        #expect(result.status == 2, "\(result.standardError)")
        #expect(result.standardError.split(separator: "\n").count == 1)
        #expect(result.standardError.contains("--log"))
    }

    @Test("the console demo writes --log as it runs and prints a summary on exit; recordings go under XDG_STATE_HOME")
    func consoleLogAndSummary() async throws {
        let directory = try TemporaryDirectory()
        let state = directory.url.appendingPathComponent("state")
        let log = directory.url.appendingPathComponent("console.jsonl")
        let command = "env XDG_STATE_HOME=\(state.path) \(OnAirBinary.url.path) demo --size 320x180 --log \(log.path); echo ONAIR-EXIT=$?; sleep 60"
        let tmux = try TmuxSession(command: command, width: 120, height: 30, directory: directory.url)
        let started = try await tmux.waitForScreen { $0.contains(" PUBLISHING ") && $0.contains(" PLAYING ") }
        #expect(started.matched, "\(started.screen)")
        // Quit once the log holds a subscriber's stats line (was a 2 s sleep; issue 24). Read as JSON: the
        // writer sorts the keys ("kind" before "side"), so the text `"side":"subscriber","kind":"stats"` never
        // came and this waited out its whole 60 s every run.
        let deadline = ContinuousClock.now + .seconds(60)
        while ContinuousClock.now < deadline, !Self.holdsSubscriberStats(log) {
            try await Task.sleep(for: .milliseconds(100))
        }
        #expect(Self.holdsSubscriberStats(log), "no subscriber stats line in --log within 60 s")
        try tmux.send("q")
        try tmux.send("y")
        let exited = try await tmux.waitForScreen { $0.contains("ONAIR-EXIT=") }
        #expect(exited.screen.contains("ONAIR-EXIT=0"), "\(exited.screen)")
        #expect(exited.screen.contains("onair: session"), "\(exited.screen)")
        // On air for a few seconds, below 10 minutes: the figure is there and is the session's (was "below 10 s",
        // which a loaded machine's slow quit could pass; issue 24).
        #expect(exited.screen.contains("on air 00:0"), "\(exited.screen)")
        #expect(exited.screen.contains(" sent"), "\(exited.screen)")
        // The shell wraps the summary at the pane's width: read it as one text.
        let unwrapped = exited.screen.replacingOccurrences(of: "\n", with: "")
        #expect(unwrapped.contains(state.path + "/onair/recordings"), "the summary says where recordings go:\n\(exited.screen)")
        #expect(FileManager.default.fileExists(atPath: state.path + "/onair/recordings"))
        #expect(!FileManager.default.fileExists(atPath: directory.url.appendingPathComponent("recordings").path), "nothing in the current directory")
        let lines = try String(contentsOf: log, encoding: .utf8).split(separator: "\n")
        let objects = lines.compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        #expect(objects.count == lines.count && lines.count > 5, "every line is a JSON object")
        #expect(objects.contains { ($0["kind"] as? String) == "status" && (($0["details"] as? [String: Any])?["text"] as? String) == "NetStream.Publish.Start" })
        #expect(objects.contains { ($0["kind"] as? String) == "stats" && ($0["side"] as? String) == "subscriber" })

        // Issue 28 (11): the log holds what headless prints: started, the setup notice, quit, stopped.
        let kinds = Set(objects.compactMap { $0["kind"] as? String })
        for kind in ["started", "notice", "quit", "stopped"] {
            #expect(kinds.contains(kind), "no \(kind) event in --log: \(kinds.sorted())")
        }
    }

    @Test("headless: a stdin quit prints a quit event before the stopped ones")
    func headlessQuitEvent() async throws {
        let port = try FreePort.loopback()
        let directory = try TemporaryDirectory()
        let serve = try PeerProcess(OnAirBinary.url.path, ["serve", "--listen", "127.0.0.1:\(port)", "--headless"], in: directory.url)
        defer { _ = serve.stop() }
        try FreePort.waitUntilAccepting(port, timeout: .seconds(30), what: "onair serve")
        let script = "(sleep 3; echo quit) | \(OnAirBinary.url.path) publish rtmp://127.0.0.1:\(port)/live/q --headless --size 320x180 --duration 30"
        let result = try await PeerProcess.run("sh", ["-c", script], in: directory.url, timeout: .seconds(40))
        let kinds = result.output.split(separator: "\n").compactMap {
            (try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])?["kind"] as? String
        }
        #expect(kinds.contains("quit"), "\(kinds)")
        #expect((kinds.firstIndex(of: "quit") ?? .max) < (kinds.firstIndex(of: "stopped") ?? -1), "\(kinds)")
    }

    @Test("--duration ends the console too, cleanly, with its summary")
    func consoleDuration() async throws {
        let directory = try TemporaryDirectory()
        let command = "\(OnAirBinary.url.path) publish rtmp://127.0.0.1:1/live/x --size 320x180 --duration 2s; echo ONAIR-EXIT=$?; sleep 60"
        let tmux = try TmuxSession(command: command, width: 120, height: 30, directory: directory.url)
        let exited = try await tmux.waitForScreen(timeout: .seconds(60)) { $0.contains("ONAIR-EXIT=") }
        #expect(exited.matched, "the console did not stop by itself:\n\(exited.screen)")
        #expect(exited.screen.contains("onair: session 00:00:0"), "\(exited.screen)")
    }

    /// Whether the JSON Lines file at `log` holds a subscriber's `stats` event.
    static func holdsSubscriberStats(_ log: URL) -> Bool {
        let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").contains { line in
            let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            return object?["kind"] as? String == "stats" && object?["side"] as? String == "subscriber"
        }
    }
}
