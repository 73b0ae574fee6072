/// Something a terminal reports that the console's loop must react to.
public enum TerminalEvent: Sendable, Equatable {
    case key(ConsoleKey)
    /// The terminal changed size (SIGWINCH → KEY_RESIZE): lay out again at the new size.
    case resize(width: Int, height: Int)
    /// SIGINT or SIGTERM arrived: stop cleanly.
    case stopRequested
}
