import Dispatch
import Synchronization

/// A terminal in memory, for tests (ratatui's `TestBackend`): it keeps every frame drawn and hands out
/// scripted events, so a loop that draws and reads keys runs without a pty, ncurses or sleeps.
///
/// Safe to script from the test's thread while the loop under test draws and reads on its own.
public final class InMemoryTerminal: TerminalBackend, Sendable {
    private struct State {
        var width: Int
        var height: Int
        var frames: [CellBuffer] = []
        var events: [TerminalEvent] = []
        var invalidations = 0
        var closeCount = 0
    }

    private let state: Mutex<State>
    /// One signal per scripted event: `nextEvent` waits on it instead of polling.
    private let arrived = DispatchSemaphore(value: 0)
    public let colorMode: TerminalColorMode

    public init(width: Int, height: Int, colorMode: TerminalColorMode = .indexed256) {
        state = Mutex(State(width: width, height: height))
        self.colorMode = colorMode
    }

    public var size: (width: Int, height: Int) { state.withLock { ($0.width, $0.height) } }

    public func draw(_ buffer: CellBuffer) {
        state.withLock { $0.frames.append(buffer) }
    }

    public func nextEvent(timeoutMilliseconds: Int32) -> TerminalEvent? {
        guard arrived.wait(timeout: .now() + .milliseconds(Int(max(0, timeoutMilliseconds)))) == .success else { return nil }
        return state.withLock { $0.events.isEmpty ? nil : $0.events.removeFirst() }
    }

    public func invalidate() {
        state.withLock { $0.invalidations += 1 }
    }

    public func close() {
        state.withLock { $0.closeCount += 1 }
    }

    // MARK: Scripting and readback.

    /// Queues events, as if typed (or signalled) in this order.
    public func send(_ events: TerminalEvent...) {
        state.withLock { $0.events += events }
        for _ in events { arrived.signal() }
    }

    /// Types `keys` in order.
    public func press(_ keys: ConsoleKey...) {
        for key in keys { send(.key(key)) }
    }

    /// Changes the size and reports it, as SIGWINCH does.
    public func resize(width: Int, height: Int) {
        state.withLock {
            $0.width = width
            $0.height = height
        }
        send(.resize(width: width, height: height))
    }

    /// Every frame drawn, oldest first.
    public var frames: [CellBuffer] { state.withLock { $0.frames } }
    /// The frame on screen now.
    public var lastFrame: CellBuffer? { state.withLock { $0.frames.last } }
    /// What the screen shows now, row by row, trailing spaces trimmed (what a pty test reads back).
    public var textLines: [String] { lastFrame?.textLines() ?? [] }
    /// Events scripted but not read yet.
    public var pendingEvents: Int { state.withLock { $0.events.count } }
    public var invalidations: Int { state.withLock { $0.invalidations } }
    /// How many times `close` was called (the terminal is given back once; a second call is harmless).
    public var closeCount: Int { state.withLock { $0.closeCount } }
}
