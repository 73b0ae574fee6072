/// Where the console's frames go and its keys come from (as ratatui's `Backend`).
///
/// Why a protocol: the ncurses screen (`TerminalScreen` in OnAirTerminal) needs a real terminal, so a test
/// that only wants to know what was drawn, or to feed keys to the loop that reads them, would need a pty and
/// sleeps. `InMemoryTerminal` records frames and plays scripted events instead; only what needs a real
/// terminal (the blit, colour pairs, restoring the tty) is tested on a pty.
///
/// A backend is used from one thread at a time (ncurses is process-global and not thread-safe).
public protocol TerminalBackend: AnyObject {
    /// The terminal's size in cells.
    var size: (width: Int, height: Int) { get }
    /// The colours the terminal shows.
    var colorMode: TerminalColorMode { get }
    /// Puts `buffer` on screen (a real terminal writes only the cells that changed).
    func draw(_ buffer: CellBuffer)
    /// Waits up to `timeoutMilliseconds` for a key, a resize or a stop request; nil when nothing happened.
    func nextEvent(timeoutMilliseconds: Int32) -> TerminalEvent?
    /// Forgets the previous frame so the next `draw` writes every cell (after a resize).
    func invalidate()
    /// Gives the terminal back as it was. Safe to call more than once.
    func close()
    /// True when frames are shown in ASCII only (`LANG=C`): widgets are told through `Theme.asciiOnly`.
    var drawsASCIIOnly: Bool { get }
}

extension TerminalBackend {
    /// Renders a console frame at the terminal's current size and draws it: one call per loop iteration.
    public func draw(_ content: ConsoleScreen, theme: Theme) {
        let (width, height) = size
        var theme = theme
        theme.asciiOnly = drawsASCIIOnly
        draw(content.render(width: width, height: height, theme: theme))
    }

    /// A backend that shows Unicode unless it says otherwise.
    public var drawsASCIIOnly: Bool { false }
}
