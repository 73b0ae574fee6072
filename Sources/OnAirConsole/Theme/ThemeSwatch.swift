/// A one-line sample of a theme for `onair themes`: the badges, a toast and the log colours, so themes can
/// be compared at a glance. Written as ANSI SGR sequences for a terminal, or as plain text for a pipe.
public struct ThemeSwatch: Sendable {
    public var theme: Theme

    public init(_ theme: Theme) {
        self.theme = theme
    }

    /// The sample pieces: text and the role that colours it.
    public static let pieces: [(String, ThemeRole)] = [
        (" PUBLISHING ", .liveBadge), (" ", .text), (" PAUSED VIDEO ", .pausedBadge), (" ", .text),
        (" AWAITING TAP ", .awaitingBadge), (" ", .text), (" ERROR ", .errorBadge), (" ", .text),
        (" Tap to Re-Publish! ", .toast), ("  ", .text), ("key ", .logKey), ("life ", .logLifecycle),
        ("pol ", .logPolicy), ("rtmp ", .logRTMP), ("msg ", .logMessage), ("ERR", .logError),
    ]

    /// The swatch line; `ansi` adds colour escape sequences (and a reset at the end).
    public func line(ansi: Bool) -> String {
        Self.pieces.map { text, role in ansi ? Self.sgr(theme[role]) + text + "\u{1B}[0m" : text }.joined()
    }

    /// The SGR sequence that selects `style` on an xterm-compatible terminal (256-colour palette).
    public static func sgr(_ style: Style) -> String {
        var codes: [String] = ["0"]
        let attributeCodes: [(TextAttributes, String)] = [(.bold, "1"), (.dim, "2"), (.italic, "3"), (.underline, "4"), (.reverse, "7")]
        codes += attributeCodes.filter { style.attributes.contains($0.0) }.map(\.1)
        if let code = colorCode(style.foreground, base: 30, extended: 38) { codes.append(code) }
        if let code = colorCode(style.background, base: 40, extended: 48) { codes.append(code) }
        return "\u{1B}[" + codes.joined(separator: ";") + "m"
    }

    private static func colorCode(_ color: TerminalColor, base: Int, extended: Int) -> String? {
        switch color {
        case .default: nil
        case .ansi(let n) where n < 8: String(base + Int(n))
        case .ansi(let n): String(base + 60 + Int(n) - 8)
        default: color.paletteIndex.map { "\(extended);5;\($0)" }
        }
    }
}
