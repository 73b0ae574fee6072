/// A key as the console understands it, independent of ncurses key codes (the terminal backend maps them).
public enum ConsoleKey: Sendable, Hashable, CustomStringConvertible {
    case character(Character)
    case tab
    case backTab
    case enter
    case escape
    case pageUp
    case pageDown

    /// How the footer and help overlay spell the key.
    public var description: String {
        switch self {
        case .character(" "): "space"
        case .character(let c): String(c)
        case .tab: "Tab"
        case .backTab: "S-Tab"
        case .enter: "Enter"
        case .escape: "Esc"
        case .pageUp: "PgUp"
        case .pageDown: "PgDn"
        }
    }
}
