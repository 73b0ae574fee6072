/// How many colours the terminal can show; decided once per screen from ncurses' `COLORS`.
public enum TerminalColorMode: String, Sendable, Equatable {
    /// 256 colours (xterm-256color, tmux-256color): palette indices as themes name them.
    case indexed256
    /// The eight ANSI colours (`xterm`, `screen`): every colour mapped to the nearest of eight.
    case basic8
    /// No colour (`vt100`, `xterm-mono`, NO_COLOR): attributes only; a coloured background becomes reverse.
    case monochrome

    /// `.monochrome` when the user asked for no colour (https://no-color.org: `NO_COLOR` set and not empty),
    /// nil to use what the terminal reports.
    public static func override(environment: [String: String]) -> TerminalColorMode? {
        environment["NO_COLOR"].map { $0.isEmpty ? nil : .monochrome } ?? nil
    }

    /// The mode for a terminal reporting `colors` colours (`has_colors` false → 0).
    public static func forTerminal(colors: Int) -> TerminalColorMode {
        colors >= 256 ? .indexed256 : colors >= 8 ? .basic8 : .monochrome
    }
}
