/// How one cell looks: foreground, background and attributes. Themes map roles to styles.
public struct Style: Sendable, Hashable, CustomStringConvertible {
    public var foreground: TerminalColor
    public var background: TerminalColor
    public var attributes: TextAttributes

    public init(foreground: TerminalColor = .default, background: TerminalColor = .default, attributes: TextAttributes = []) {
        self.foreground = foreground
        self.background = background
        self.attributes = attributes
    }

    public static let plain = Style()

    /// The style in theme-file syntax (`bold red on black`): used by `onair themes` and style snapshots.
    public var description: String {
        var words = TextAttributes.named.filter { attributes.contains($0.1) }.map(\.0)
        words.append(foreground.description)
        if background != .default { words.append("on " + background.description) }
        return words.joined(separator: " ")
    }

    /// This style with `other`'s non-default parts laid over it: a toast's text keeps the toast background.
    public func patched(with other: Style) -> Style {
        Style(
            foreground: other.foreground == .default ? foreground : other.foreground,
            background: other.background == .default ? background : other.background,
            attributes: attributes.union(other.attributes)
        )
    }
}
