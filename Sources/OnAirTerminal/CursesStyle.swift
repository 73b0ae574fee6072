import OnAirConsole

/// A style as ncurses needs it: attributes plus a foreground/background colour number (-1 = terminal default).
public struct CursesStyle: Sendable, Hashable {
    public var attributes: TextAttributes
    public var foreground: Int32
    public var background: Int32
}
