import Foundation
import OnAirConsole
import Testing
@testable import OnAirTerminal

#if canImport(Glibc)
import Glibc
#endif

/// The ncurses blit and key input, on a real pseudo-terminal. ncurses is process-global: serialized.
@Suite("TerminalScreen on a pty", .serialized)
struct TerminalScreenTests {
    static func frame(width: Int, height: Int, badge: String = "PUBLISHING") -> CellBuffer {
        var buffer = CellBuffer(width: width, height: height)
        let theme = Theme.builtInDefault
        Panel(title: "Publisher · stream1", isFocused: true).render(in: buffer.area, into: &buffer, theme: theme)
        StatusBadge(text: badge, role: .liveBadge).render(in: Rect(x: 2, y: 1, width: 20, height: 1), into: &buffer, theme: theme)
        Sparkline(samples: [1, 2, 3, 4, 5, 6, 7, 8]).render(in: Rect(x: 2, y: 2, width: 8, height: 1), into: &buffer, theme: theme)
        buffer.put("▀", x: 2, y: 3, style: Style(foreground: .rgb(255, 0, 0), background: .rgb(0, 0, 255)))
        buffer.write("Tap to Re-Publish!", x: 4, y: 3, style: theme[.toast])
        buffer.put("界", x: 24, y: 3, style: .plain)
        buffer.put("X", x: width - 1, y: height - 1, style: .plain)
        return buffer
    }

    func withScreen(
        width: Int = 40, height: Int = 8, terminal: String = "xterm-256color",
        _ body: (TerminalScreen, PseudoTerminal) throws -> Void
    ) throws {
        let pty = try PseudoTerminal(width: width, height: height)
        defer { pty.close() }
        let screen = try TerminalScreen.open(TerminalScreen.Options(input: pty.slave, output: pty.slave, terminalName: terminal))
        defer { screen.close() }
        try body(screen, pty)
    }

    @Test("a blit puts the buffer's characters on screen, box drawing, blocks and wide characters included")
    func blitMatchesBuffer() throws {
        try withScreen { screen, pty in
            #expect(screen.size.width == 40 && screen.size.height == 8)
            let buffer = Self.frame(width: 40, height: 8)
            screen.draw(buffer)
            #expect(screen.readBack() == buffer.textLines())
            #expect(screen.lastFrame.failedWrites == 0)
            let output = String(decoding: pty.take(), as: UTF8.self)
            for text in ["PUBLISHING", "Tap to Re-Publish!", "▁▂▃▄▅▆▇█", "Publisher · stream1", "┏━▶ ", "▀", "界"] {
                #expect(output.contains(text), "\(text) not written to the terminal")
            }
        }
    }

    @Test("256-colour terminals get indexed colours and extended pairs")
    func indexedColours() throws {
        try withScreen(terminal: "xterm-256color") { screen, pty in
            #expect(screen.colorMode == .indexed256)
            screen.draw(Self.frame(width: 40, height: 8))
            let output = String(decoding: pty.take(), as: UTF8.self)
            #expect(output.contains("\u{1B}[38;5;") || output.contains("\u{1B}[48;5;"), "no 256-colour SGR in the output")
            #expect(screen.readBackPair(x: 2, y: 3).map { $0 > 0 } == true)
        }
    }

    @Test("an 8-colour terminal falls back to the eight ANSI colours")
    func eightColours() throws {
        try withScreen(terminal: "xterm") { screen, pty in
            #expect(screen.colorMode == .basic8)
            screen.draw(Self.frame(width: 40, height: 8))
            let output = String(decoding: pty.take(), as: UTF8.self)
            #expect(!output.contains("38;5;"))
            #expect(output.contains("\u{1B}[3") || output.contains("\u{1B}[4"))
            #expect(screen.lastFrame.failedWrites == 0)
        }
    }

    @Test("a terminal without colours gets attributes only")
    func monochrome() throws {
        try withScreen(terminal: "xterm-mono") { screen, pty in
            #expect(screen.colorMode == .monochrome)
            screen.draw(Self.frame(width: 40, height: 8))
            let output = String(decoding: pty.take(), as: UTF8.self)
            let setsColour = (0...7).contains { output.contains("\u{1B}[3\($0)m") || output.contains("\u{1B}[4\($0)m") }
            #expect(!output.contains("38;5;") && !setsColour)
            #expect(output.contains("PUBLISHING"))
            #expect(screen.readBackPair(x: 2, y: 1) == 0)
        }
    }

    @Test("a second frame writes only the cells that changed")
    func diffWritesOnlyChanges() throws {
        try withScreen { screen, pty in
            let first = Self.frame(width: 40, height: 8)
            screen.draw(first)
            let firstBytes = pty.take().count
            var second = first
            second.put("Z", x: 30, y: 5, style: .plain)
            screen.draw(second)
            let secondOutput = pty.take()
            #expect(screen.lastFrame.cellsWritten == 1)
            #expect(String(decoding: secondOutput, as: UTF8.self).contains("Z"))
            #expect(secondOutput.count < 32 && secondOutput.count < firstBytes / 10, "second frame wrote \(secondOutput.count) bytes")
            screen.draw(second)
            #expect(screen.lastFrame.cellsWritten == 0)
            #expect(pty.take().isEmpty)
            #expect(screen.readBack()[5].contains("Z"))
        }
    }

    @Test("colours that map to the same palette entry are not rewritten")
    func paletteEqualColoursAreNoChange() throws {
        try withScreen { screen, pty in
            var first = CellBuffer(width: 40, height: 8)
            first.put("▀", x: 3, y: 3, style: Style(foreground: .rgb(250, 0, 0), background: .rgb(0, 0, 250)))
            screen.draw(first)
            _ = pty.take()
            var second = first
            second.put("▀", x: 3, y: 3, style: Style(foreground: .rgb(255, 2, 1), background: .rgb(0, 1, 255)))
            screen.draw(second)
            #expect(screen.lastFrame.cellsWritten == 0)
            #expect(pty.take().isEmpty)
            second.put("▀", x: 3, y: 3, style: Style(foreground: .rgb(0, 255, 0), background: .rgb(0, 1, 255)))
            screen.draw(second)
            #expect(screen.lastFrame.cellsWritten == 1)
        }
    }

    @Test("when colour pairs run out they are reset and the frame is repainted once")
    func colourPairExhaustion() throws {
        let pty = try PseudoTerminal(width: 40, height: 8)
        defer { pty.close() }
        var options = TerminalScreen.Options(input: pty.slave, output: pty.slave, terminalName: "xterm-256color")
        options.colorPairLimit = 3
        let screen = try TerminalScreen.open(options)
        defer { screen.close() }
        func cells(_ colours: [UInt8]) -> CellBuffer {
            var buffer = CellBuffer(width: 40, height: 8)
            for (index, colour) in colours.enumerated() {
                buffer.put("█", x: index, y: 0, style: Style(foreground: .indexed(colour)))
            }
            return buffer
        }
        screen.draw(cells([1, 2, 3]))
        #expect(screen.lastFrame.colorPairResets == 0 && screen.lastFrame.cellsWithoutPair == 0)
        let next = cells([1, 2, 4])
        screen.draw(next)
        #expect(screen.lastFrame.colorPairResets == 1)
        #expect(screen.lastFrame.cellsWritten == 40 * 8)
        #expect(screen.lastFrame.cellsWithoutPair == 0)
        #expect(screen.readBackPair(x: 2, y: 0).map { (1...3).contains($0) } == true)
        screen.draw(cells([10, 11, 12, 13, 14]))
        #expect(screen.lastFrame.colorPairResets == 1 && screen.lastFrame.cellsWithoutPair == 2)
        #expect(screen.lastFrame.failedWrites == 0)
        #expect(screen.readBack() == cells([10, 11, 12, 13, 14]).textLines())
    }

    @Test("keys typed on the terminal arrive as console keys")
    func keys() throws {
        try withScreen { screen, pty in
            pty.type("c\t?")
            #expect(screen.nextEvent(timeoutMilliseconds: 500) == .key(.character("c")))
            #expect(screen.nextEvent(timeoutMilliseconds: 500) == .key(.tab))
            #expect(screen.nextEvent(timeoutMilliseconds: 500) == .key(.character("?")))
            #expect(screen.nextEvent(timeoutMilliseconds: 50) == nil)
            pty.type(" ")
            #expect(screen.nextEvent(timeoutMilliseconds: 500) == .key(.character(" ")))
            pty.type("\u{1B}")
            #expect(screen.nextEvent(timeoutMilliseconds: 500) == .key(.escape))
            pty.type("\u{1B}[Z")
            #expect(screen.nextEvent(timeoutMilliseconds: 500) == .key(.backTab))
        }
    }

    @Test("Ctrl-L makes the next frame repaint every cell")
    func controlLRepaints() throws {
        try withScreen { screen, pty in
            let frame = Self.frame(width: 40, height: 8)
            screen.draw(frame)
            _ = pty.take()
            pty.type("\u{0C}")
            #expect(screen.nextEvent(timeoutMilliseconds: 500) == nil)
            screen.draw(frame)
            #expect(screen.lastFrame.cellsWritten == 40 * 8 - 1)
            #expect(String(decoding: pty.take(), as: UTF8.self).contains("PUBLISHING"))
        }
    }

    @Test("a window size change arrives as a resize and the next frame is drawn in full")
    func resize() throws {
        try withScreen { screen, pty in
            screen.draw(Self.frame(width: 40, height: 8))
            _ = pty.take()
            try pty.resize(width: 50, height: 10)
            // Process-directed: the test's own thread may block signals (Swift's thread pools do).
            _ = kill(getpid(), SIGWINCH)
            var event: TerminalScreen.Event?
            // Up to 10 s for the SIGWINCH to come through (a safety net; was 1 s, issue 24).
            for _ in 0..<100 where event == nil { event = screen.nextEvent(timeoutMilliseconds: 100) }
            #expect(event == .resize(width: 50, height: 10))
            let bigger = Self.frame(width: 50, height: 10)
            screen.draw(bigger)
            #expect(screen.lastFrame.cellsWritten >= 50 * 9)
            #expect(screen.readBack() == bigger.textLines())
        }
    }

    @Test("SIGINT becomes a stop request instead of killing the process")
    func stopSignal() throws {
        try withScreen { screen, _ in
            TerminalSignals.reset()
            _ = kill(getpid(), SIGINT)
            // Waits for the handler's flag (up to 10 s, a safety net; was 100 ms, issue 24).
            for _ in 0..<5_000 where !TerminalSignals.stopRequested { usleep(2000) }
            #expect(TerminalSignals.stopRequested)
            #expect(screen.nextEvent(timeoutMilliseconds: 10) == .stopRequested)
            TerminalSignals.reset()
            #expect(screen.nextEvent(timeoutMilliseconds: 10) == nil)
        }
    }

    @Test("close restores the terminal and can be called twice")
    func closeRestores() throws {
        let pty = try PseudoTerminal(width: 40, height: 8)
        defer { pty.close() }
        let screen = try TerminalScreen.open(TerminalScreen.Options(input: pty.slave, output: pty.slave, terminalName: "xterm-256color"))
        screen.draw(Self.frame(width: 40, height: 8))
        _ = pty.take()
        screen.close()
        let output = String(decoding: pty.take(), as: UTF8.self)
        // xterm's rmcup (leave the alternate screen) is part of endwin's output.
        #expect(output.contains("\u{1B}[?1049l"), "endwin did not leave the alternate screen")
        screen.close()
        #expect(screen.nextEvent(timeoutMilliseconds: 1) == .stopRequested)
    }

    @Test("without a tty the console refuses in one line that points to --headless")
    func refusesWithoutTTY() throws {
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        defer {
            close(fds[0])
            close(fds[1])
        }
        #expect(throws: TerminalScreen.Error.notATerminal) {
            try TerminalScreen.open(TerminalScreen.Options(input: fds[0], output: fds[1]))
        }
        let message = TerminalScreen.Error.notATerminal.description
        #expect(message.contains("--headless") && !message.contains("\n"))
    }

    @Test("an unknown TERM is an error, not an exit")
    func unknownTerminal() throws {
        let pty = try PseudoTerminal(width: 40, height: 8)
        defer { pty.close() }
        #expect(throws: TerminalScreen.Error.unknownTerminal("no-such-terminal-xyz")) {
            try TerminalScreen.open(TerminalScreen.Options(input: pty.slave, output: pty.slave, terminalName: "no-such-terminal-xyz"))
        }
    }
}
