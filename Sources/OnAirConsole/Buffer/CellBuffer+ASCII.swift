/// The console drawn with ASCII only, for a locale that is not UTF-8 (`LANG=C`): there, ncurses cannot show
/// box drawing, `●` or the preview's quadrant blocks, and would print them as garbage.
extension CellBuffer {
    /// Every cell mapped to one ASCII character of the same width: borders to `+-|`, flags to `*`/`-`,
    /// the preview's quadrant blocks to a coloured space (or, in `monochrome`, a character of the cell's
    /// brightness), and anything else non-ASCII to `?`. A wide character becomes `?` and a space.
    public func asciiOnly(monochrome: Bool) -> CellBuffer {
        var result = CellBuffer(width: width, height: height)
        for y in 0..<height {
            for x in 0..<width {
                let cell = self[x, y]
                if cell.isContinuation {
                    result.put(" ", x: x, y: y, style: cell.style)
                    continue
                }
                let (character, style) = Self.ascii(cell, monochrome: monochrome)
                result.put(character, x: x, y: y, style: style)
            }
        }
        return result
    }

    /// Brightness ramp for a picture cell without colour, darkest first.
    static let brightnessRamp = Array(" .:-=+*#%@")

    static func ascii(_ cell: Cell, monochrome: Bool) -> (Character, Style) {
        let character = cell.character
        // Picture cells first: a one-colour picture cell is a space, ASCII already, but coloured.
        if let mask = QuadrantGlyph.mask(of: character), case .rgb = cell.style.foreground, case .rgb = cell.style.background {
            return picture(cell, mask: mask, monochrome: monochrome)
        }
        if character.isASCII { return (character, cell.style) }
        if let mask = QuadrantGlyph.mask(of: character) { return (quadrantFallback[Int(mask)], cell.style) }
        return (asciiFallback[character] ?? "?", cell.style)
    }

    /// A quadrant-block preview cell (set quadrants in the foreground, the rest in the background) as one
    /// ASCII cell: a one-colour cell as a coloured space; a two-colour one as the character of its shape
    /// (`quadrantFallback`) in its two colours, so the counter's digits keep their strokes (`___`, `# #`,
    /// `#_#` for a 0). In `monochrome`, the shape where the two colours are light and dark, else a
    /// character of the cell's brightness.
    private static func picture(_ cell: Cell, mask: UInt8, monochrome: Bool) -> (Character, Style) {
        let front = cell.style.foreground.approximateRGB ?? (255, 255, 255)
        let back = cell.style.background.approximateRGB ?? front
        func luma(_ c: (red: Int, green: Int, blue: Int)) -> Int { (c.red * 299 + c.green * 587 + c.blue * 114) / 1000 }
        let share = QuadrantGlyph.filled(mask)
        if monochrome {
            if share > 0, share < 4, luma(front) >= 128, luma(back) < 128 { return (quadrantFallback[Int(mask)], .plain) }
            func mix(_ a: Int, _ b: Int) -> Int { (a * share + b * (4 - share)) / 4 }
            let mean = (red: mix(front.red, back.red), green: mix(front.green, back.green), blue: mix(front.blue, back.blue))
            let index = min(brightnessRamp.count - 1, luma(mean) * brightnessRamp.count / 256)
            return (brightnessRamp[index], .plain)
        }
        let only = share == 4 ? front : back
        guard share > 0, share < 4 else {
            return (" ", Style(foreground: .default, background: .rgb(UInt8(only.red), UInt8(only.green), UInt8(only.blue))))
        }
        return (quadrantFallback[Int(mask)], Style(
            foreground: .rgb(UInt8(front.red), UInt8(front.green), UInt8(front.blue)),
            background: .rgb(UInt8(back.red), UInt8(back.green), UInt8(back.blue))))
    }

    /// Quadrant blocks by mask (bit 0 top left, 1 top right, 2 bottom left, 3 bottom right), shaped as near
    /// as ASCII goes: halves as `^ _ [ ]`, three quarters as `L J` or `#`.
    static let quadrantFallback: [Character] = [
        " ", "'", "'", "^", ".", "[", "/", "#", ".", "\\", "]", "#", "_", "L", "J", "#",
    ]

    /// What the console draws outside ASCII, and its ASCII stand-in.
    static let asciiFallback: [Character: Character] = [
        "─": "-", "━": "=", "│": "|", "┃": "|",
        "┌": "+", "┐": "+", "└": "+", "┘": "+", "┏": "+", "┓": "+", "┗": "+", "┛": "+",
        "║": "|", "═": "=", "╭": "+", "╮": "+", "╰": "+", "╯": "+", "—": "-", "–": "-", "✗": "x", "✓": "v",
        "├": "+", "┤": "+", "┬": "+", "┴": "+", "┼": "+",
        "●": "*", "○": "-", "▶": ">", "◀": "<", "▲": "^", "▼": "v", "·": ".", "…": "~", "→": ">", "←": "<",
        "↑": "^", "↓": "v", "×": "x", "≥": ">", "≤": "<", "°": "o", "µ": "u",
        "▁": "_", "▂": "_", "▃": ".", "▄": "o", "▅": "o", "█": "#", "▀": "\"", "▆": "O", "▇": "#", "░": ":", "▒": "%", "▓": "#",
    ]
}
