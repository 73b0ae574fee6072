import Foundation
import OnAirTestSupport
import Testing

/// Issue 16 on the real binary in a real terminal (tmux): `onair publish` to `onair serve` through its own
/// link stage — the elevator key stalls the broadcast and lifting it brings the wire back; `r` while
/// publishing is a new connection at the server at once.
@Suite("Link keys and reconnect now in the console", .serialized)
struct LinkConsoleTests {
    private func publish(_ port: Int, stream: String, in directory: TemporaryDirectory) throws -> TmuxSession {
        try TmuxSession(
            command: "\(OnAirBinary.url.path) publish rtmp://127.0.0.1:\(port)/live/\(stream) --size 640x360 --bitrate 1M --send-timeout 3 --link-delay 0; echo ONAIR-EXIT=$?; sleep 60",
            width: 110, height: 30, directory: directory.url)
    }

    @Test("w: link down → STALLED within 6 s; w again: PUBLISHING with the wire's bitrate back")
    func elevatorKey() async throws {
        let directory = try TemporaryDirectory()
        let server = try ServeRun(in: directory)
        defer { server.stop() }
        let tmux = try publish(server.port, stream: "elevator", in: directory)
        let live = try await tmux.waitForScreen(timeout: .seconds(30)) { $0.contains(" PUBLISHING ") && $0.contains("link up") && $0.contains(" kb/s") }
        #expect(live.matched, "never publishing through the link stage:\n\(live.screen)")
        #expect(live.screen.contains("w link down"), "the footer does not offer the link key:\n\(live.screen)")
        try await Task.sleep(for: .seconds(1))
        try tmux.send("w")
        let stalled = try await tmux.waitForScreen(timeout: .seconds(6)) { $0.contains(" STALLED ") }
        #expect(stalled.matched, "no STALLED within 6 s of the link going down:\n\(stalled.screen)")
        #expect(stalled.screen.contains("link DOWN"), "the dashboard does not show the link down:\n\(stalled.screen)")
        #expect(stalled.screen.contains("w link up"), "the footer does not offer to lift it:\n\(stalled.screen)")
        try tmux.send("w")
        let back = try await tmux.waitForScreen(timeout: .seconds(30)) { screen in
            screen.contains(" PUBLISHING ") && screen.contains("link up") && !screen.contains("bitrate  0 b/s") && screen.contains(" kb/s")
        }
        #expect(back.matched, "not publishing with a wire bitrate again after link-up:\n\(back.screen)")
        try tmux.send("x")
        try tmux.send("q")
    }

    @Test("r while PUBLISHING: a new connection at the server at once, then PUBLISHING again")
    func reconnectKey() async throws {
        let directory = try TemporaryDirectory()
        let server = try ServeRun(in: directory)
        defer { server.stop() }
        let tmux = try publish(server.port, stream: "again", in: directory)
        let live = try await tmux.waitForScreen(timeout: .seconds(30)) { $0.contains(" PUBLISHING ") }
        #expect(live.matched, "never publishing:\n\(live.screen)")
        #expect(live.screen.contains("r reconnect"), "the footer does not offer r reconnect:\n\(live.screen)")
        let connections = server.count("connection")
        try tmux.send("r")
        let elapsed = try await server.waitForMore("connection", than: connections, within: .seconds(10))
        #expect(elapsed != nil, "no new connection at the server after r")
        #expect(elapsed.map { $0 < .seconds(2) } != false, "the new connection came after \(String(describing: elapsed)), as a backoff would")
        let again = try await tmux.waitForScreen(timeout: .seconds(20)) { $0.contains(" PUBLISHING ") && $0.contains("reconnect now") }
        #expect(again.matched, "not publishing again after r:\n\(again.screen)")
        try tmux.send("x")
        try tmux.send("q")
    }
}
