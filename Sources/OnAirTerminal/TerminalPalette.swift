import OnAirConsole

/// Maps theme styles down to what the terminal can show. Pure, so the fallbacks are unit-tested
/// without a terminal.
public struct TerminalPalette: Sendable {
    public var mode: TerminalColorMode
    /// False when `use_default_colors` failed: "default" then means white on black.
    public var hasDefaultColors: Bool

    public init(mode: TerminalColorMode, hasDefaultColors: Bool = true) {
        self.mode = mode
        self.hasDefaultColors = hasDefaultColors
    }

    /// The colour numbers and attributes ncurses should use for `style` in this palette's mode.
    public func cursesStyle(for style: Style) -> CursesStyle {
        var attributes = style.attributes
        switch mode {
        case .monochrome:
            // Without colours, a background is what marks a badge or a toast: show it as reverse video.
            if style.background != .default { attributes.insert(.reverse) }
            return CursesStyle(attributes: attributes, foreground: -1, background: -1)
        case .basic8:
            if case .ansi(let n) = style.foreground, n >= 8 { attributes.insert(.bold) }
            var foreground = style.foreground.basicIndex
            let background = style.background.basicIndex
            // A mid grey (an unfocused border, muted text, a cleared flag) is nearest to black, which
            // vanishes on the usual black background: show it as dim white, still apart from the colours.
            if foreground == 0, (background ?? 0) == 0, style.foreground.isGrey {
                foreground = 7
                attributes.insert(.dim)
            }
            return CursesStyle(
                attributes: attributes,
                foreground: number(foreground, isForeground: true),
                background: number(background, isForeground: false)
            )
        case .indexed256:
            return CursesStyle(
                attributes: attributes,
                foreground: number(style.foreground.paletteIndex, isForeground: true),
                background: number(style.background.paletteIndex, isForeground: false)
            )
        }
    }

    private func number(_ index: Int?, isForeground: Bool) -> Int32 {
        if let index { return Int32(index) }
        return hasDefaultColors ? -1 : (isForeground ? 7 : 0)
    }

    /// On a monochrome terminal a picture cell (a quadrant block with its light pixels as foreground and
    /// dark ones as background, `▀` among them) keeps its shape by brightness, with no colour: the glyph
    /// itself, its inverse, `█` or a space — a readable 1-bit preview instead of a reverse-video smear. Nil
    /// when the cell is not a picture cell or colours are available.
    public func monochromeHalfBlock(_ character: Character, style: Style) -> Character? {
        guard mode == .monochrome, let mask = QuadrantGlyph.mask(of: character),
              case .rgb = style.foreground, case .rgb = style.background,
              let top = style.foreground.approximateRGB, let bottom = style.background.approximateRGB
        else { return nil }
        func isLight(_ c: (red: Int, green: Int, blue: Int)) -> Bool { (c.red * 299 + c.green * 587 + c.blue * 114) / 1000 >= 128 }
        switch (isLight(top), isLight(bottom)) {
        case (true, true): return "█"
        case (true, false): return QuadrantGlyph.character(mask)
        case (false, true): return QuadrantGlyph.character(~mask)
        case (false, false): return " "
        }
    }
}
