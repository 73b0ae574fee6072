import Foundation
import OnAirConsole
import OnAirCore
import Synchronization
import Testing
@testable import OnAirApp

/// The console's terminal thread against an in-memory terminal: keys in, frames out, no pty and no ncurses.
@Suite("TerminalThread on an in-memory terminal")
struct TerminalThreadTests {
    final class Events: Sendable {
        let received = Mutex<[TerminalEvent]>([])

        /// Waits (up to 60 s, a safety net for a loaded machine; was 10 s, issue 24) until `count` events arrived.
        func wait(for count: Int) -> [TerminalEvent] {
            for _ in 0..<6_000 where received.withLock({ $0.count }) < count { usleep(10_000) }
            return received.withLock { $0 }
        }
    }

    static func screen(badge status: PublisherStatus) -> ConsoleScreen {
        var publisher = PublisherAppState(policy: .tapRepublish, streamName: "stream1", redactedURL: "rtmp://127.0.0.1:1935/live/stream1")
        publisher.status = status
        return ConsoleScreen(publisher: publisher, now: SessionTime(milliseconds: 5_000))
    }

    static func waitForFrame(_ terminal: InMemoryTerminal, where condition: (CellBuffer) -> Bool) -> CellBuffer? {
        for _ in 0..<6_000 {
            if let frame = terminal.lastFrame, condition(frame) { return frame }
            usleep(10_000)
        }
        return nil
    }

    @Test("typed keys reach the loop in order; the newest screen handed over is drawn at the terminal's size")
    func keysAndFrames() throws {
        let terminal = InMemoryTerminal(width: 80, height: 24)
        let events = Events()
        let thread = try TerminalThread(theme: .builtInDefault, open: { terminal }) { event in
            events.received.withLock { $0.append(event) }
        }
        defer { thread.stop() }
        terminal.press(.character("c"), .tab, .character("d"))
        #expect(events.wait(for: 3) == [.key(.character("c")), .key(.tab), .key(.character("d"))])
        thread.show(Self.screen(badge: .publishing))
        let frame = Self.waitForFrame(terminal) { $0.textLines().joined().contains("PUBLISHING") }
        #expect(frame?.width == 80 && frame?.height == 24)
        thread.show(Self.screen(badge: .pausedVideo))
        #expect(Self.waitForFrame(terminal) { !$0.textLines().joined().contains("PUBLISHING") } != nil)
    }

    @Test("a resize is reported, forces a full repaint, and the next frame is laid out at the new size")
    func resize() throws {
        let terminal = InMemoryTerminal(width: 80, height: 24)
        let events = Events()
        let thread = try TerminalThread(theme: .builtInDefault, open: { terminal }) { event in
            events.received.withLock { $0.append(event) }
        }
        defer { thread.stop() }
        terminal.resize(width: 100, height: 30)
        #expect(events.wait(for: 1) == [.resize(width: 100, height: 30)])
        #expect(terminal.invalidations == 1)
        thread.show(Self.screen(badge: .publishing))
        let frame = Self.waitForFrame(terminal) { $0.width == 100 }
        #expect(frame?.height == 30)
    }

    @Test("a stop request is reported once, and stop gives the terminal back once however often it is called")
    func stopOnce() throws {
        let terminal = InMemoryTerminal(width: 80, height: 24)
        let events = Events()
        let thread = try TerminalThread(theme: .builtInDefault, open: { terminal }) { event in
            events.received.withLock { $0.append(event) }
        }
        terminal.send(.stopRequested, .stopRequested)
        #expect(events.wait(for: 1) == [.stopRequested])
        usleep(200_000)
        #expect(events.received.withLock { $0 } == [.stopRequested], "a stop request is reported once")
        thread.stop()
        thread.stop()
        #expect(terminal.closeCount == 1)
    }

    @Test("a terminal that cannot open is thrown from the initializer, before anything is drawn")
    func openFailure() {
        struct Refused: Error {}
        #expect(throws: Refused.self) {
            try TerminalThread(theme: .builtInDefault, open: { throw Refused() }) { _ in }
        }
    }
}
