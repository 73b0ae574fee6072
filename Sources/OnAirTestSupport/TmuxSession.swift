import Foundation
import OnAirCore

/// A detached tmux session running a real program in a real pseudo-terminal, for tests that press keys
/// and read the screen exactly as an operator would (`send-keys`, `capture-pane -p`).
///
/// Each session uses its own tmux server socket (`-L`), so tests never touch the user's tmux.
public final class TmuxSession: Sendable {
    public let name: String
    private let socket: String

    public init(command: String, width: Int = 160, height: Int = 48, directory: URL) throws {
        name = "onair-\(UUID().uuidString.prefix(8))"
        socket = "onair-test-\(UUID().uuidString.prefix(8))"
        let status = try Spawn.run(
            "tmux",
            ["-L", socket, "-f", "/dev/null", "new-session", "-d", "-s", name, "-x", "\(width)", "-y", "\(height)",
             "-c", directory.path, "-e", "TERM=tmux-256color", command]
        )
        guard status == 0 else { throw PeerError.failed("tmux new-session exited with \(status)") }
    }

    deinit {
        _ = try? Spawn.run("tmux", ["-L", socket, "kill-server"])
    }

    /// Presses keys (tmux key names: `c`, `Space`, `Tab`, `Enter`, …).
    public func send(_ keys: String...) throws {
        let status = try Spawn.run("tmux", ["-L", socket, "send-keys", "-t", name] + keys)
        guard status == 0 else { throw PeerError.failed("tmux send-keys exited with \(status)") }
    }

    /// Resizes the window (and its one pane): the program gets SIGWINCH, as when the operator resizes the terminal.
    public func resize(width: Int, height: Int) throws {
        let status = try Spawn.run("tmux", ["-L", socket, "resize-window", "-t", name, "-x", "\(width)", "-y", "\(height)"])
        guard status == 0 else { throw PeerError.failed("tmux resize-window exited with \(status)") }
    }

    /// The screen as text lines; with `escapes`, with the colours and attributes as SGR escapes
    /// (`capture-pane -e`), to check what the program drew and not only the characters.
    public func capture(escapes: Bool = false) throws -> String {
        let flags = escapes ? ["-p", "-e"] : ["-p"]
        let result = try PeerProcess.run("tmux", ["-L", socket, "capture-pane"] + flags + ["-t", name], in: FileManager.default.temporaryDirectory)
        return result.output
    }

    /// The tmux server socket name (`-L`), for tools that read the pane themselves (tmux2png).
    public var socketName: String { socket }

    /// Waits until the screen satisfies `predicate` on two consecutive captures taken a moment apart (see
    /// ``ScreenSettle``: a capture can show a frame tmux has only half drawn); returns the last screen either
    /// way. `timeout` is a safety net (a screen shows in well under a second idle; it was 15 s, now 60 s for a
    /// loaded machine, issue 24).
    @discardableResult
    public func waitForScreen(timeout: Duration = .seconds(60), _ predicate: (String) -> Bool) throws -> (matched: Bool, screen: String) {
        let deadline = ContinuousClock.now + timeout
        var settle = ScreenSettle()
        var screen = ""
        while settle.confirming || ContinuousClock.now < deadline {
            screen = try capture()
            switch settle.handle(screen: screen, holds: predicate(screen)) {
            case .matched(let settled): return (true, settled)
            case .confirm(let pause), .poll(let pause): Thread.sleep(forTimeInterval: NumberText.seconds(pause))
            }
        }
        return (false, screen)
    }

    /// ``waitForScreen(timeout:_:)`` for async tests: polls without holding one of the test pool's threads.
    @discardableResult
    public func waitForScreen(timeout: Duration = .seconds(60), _ predicate: (String) -> Bool) async throws -> (matched: Bool, screen: String) {
        let deadline = ContinuousClock.now + timeout
        var settle = ScreenSettle()
        var screen = ""
        while settle.confirming || ContinuousClock.now < deadline {
            screen = try capture()
            switch settle.handle(screen: screen, holds: predicate(screen)) {
            case .matched(let settled): return (true, settled)
            case .confirm(let pause), .poll(let pause): try await Task.sleep(for: pause)
            }
        }
        return (false, screen)
    }

    /// Whether the session's program still runs (the session ends with it when nothing else holds it).
    public var isAlive: Bool {
        (try? Spawn.run("tmux", ["-L", socket, "has-session", "-t", name])) == 0
    }
}
