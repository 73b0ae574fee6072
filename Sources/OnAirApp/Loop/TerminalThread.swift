import Dispatch
import Foundation
import OnAirConsole
import OnAirTerminal
import Synchronization

/// The one thread that talks to ncurses: it reads keys and draws the newest screen it was handed.
///
/// ncurses is neither thread-safe nor non-blocking (`wgetch` waits up to its timeout), so it cannot live
/// on Swift's cooperative pool, and drawing and reading must happen on the same thread. The front end's
/// async loop only hands over `ConsoleScreen` values (pure data); rendering to cells and the diffing blit
/// happen here. Frames handed over faster than they are drawn replace each other, so a burst of events
/// costs one draw.
final class TerminalThread: Sendable {
    private struct Shared {
        var pending: ConsoleScreen?
        var stopped = false
    }

    private let shared = Mutex(Shared())
    private let finished = DispatchSemaphore(value: 0)

    /// Opens the ncurses terminal on a new thread; throws (with the terminal untouched) when it cannot.
    convenience init(theme: Theme, options: TerminalScreen.Options = TerminalScreen.Options(), onEvent: @escaping @Sendable (TerminalEvent) -> Void) throws {
        try self.init(theme: theme, open: { try TerminalScreen.open(options) }, onEvent: onEvent)
    }

    /// Opens the backend `open` makes on a new thread (ncurses must be opened, drawn and read on one thread);
    /// tests pass an `InMemoryTerminal`.
    init(theme: Theme, open: @escaping @Sendable () throws -> any TerminalBackend, onEvent: @escaping @Sendable (TerminalEvent) -> Void) throws {
        let opened = DispatchSemaphore(value: 0)
        let failure = Mutex<(any Error)?>(nil)
        let thread = Thread { [self] in
            defer { finished.signal() }
            let screen: any TerminalBackend
            do {
                screen = try open()
            } catch {
                failure.withLock { $0 = error }
                opened.signal()
                return
            }
            opened.signal()
            var stopReported = false
            while true {
                if stopReported {
                    // `nextEvent` answers `.stopRequested` at once from now on: report it once, then wait
                    // for `stop()` (the broadcast may take a while to end) instead of spinning a core and
                    // flooding the front end's stream with stop events.
                    usleep(40_000)
                } else if let event = screen.nextEvent(timeoutMilliseconds: 40) {
                    if case .resize = event { screen.invalidate() }
                    if case .stopRequested = event { stopReported = true }
                    onEvent(event)
                }
                let (frame, stop) = self.shared.withLock { shared in
                    defer { shared.pending = nil }
                    return (shared.pending, shared.stopped)
                }
                if stop { break }
                if let frame { screen.draw(frame, theme: theme) }
            }
            screen.close()
        }
        thread.name = "onair-terminal"
        thread.start()
        opened.wait()
        if let error = failure.withLock({ $0 }) {
            finished.wait()
            throw error
        }
    }

    /// Hands over the newest screen to draw.
    func show(_ screen: ConsoleScreen) {
        shared.withLock { $0.pending = screen }
    }

    /// Restores the terminal and waits for the thread to end. Safe to call twice.
    func stop() {
        let first = shared.withLock { shared in
            defer { shared.stopped = true }
            return !shared.stopped
        }
        guard first else { return }
        finished.wait()
    }
}
