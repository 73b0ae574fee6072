/// The console drawn with ASCII only, for a locale that is not UTF-8 (`LANG=C`): there, ncurses cannot show
/// box drawing, `●` or the preview's half blocks, and would print them as garbage.
extension CellBuffer {
    /// Every cell mapped to one ASCII character of the same width: borders to `+-|`, flags to `*`/`-`,
    /// the preview's half blocks to a coloured space (or, in `monochrome`, a character of the cell's
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
        if character.isASCII { return (character, cell.style) }
        if character == "▀", case .rgb = cell.style.foreground, case .rgb = cell.style.background {
            return picture(cell, monochrome: monochrome)
        }
        return (asciiFallback[character] ?? "?", cell.style)
    }

    /// A half-block preview cell (top pixel as foreground, bottom as background) as one ASCII cell.
    private static func picture(_ cell: Cell, monochrome: Bool) -> (Character, Style) {
        let top = cell.style.foreground.approximateRGB ?? (255, 255, 255)
        let bottom = cell.style.background.approximateRGB ?? top
        if monochrome {
            let luma = ((top.red + bottom.red) * 299 + (top.green + bottom.green) * 587 + (top.blue + bottom.blue) * 114) / 2000
            let index = min(brightnessRamp.count - 1, luma * brightnessRamp.count / 256)
            return (brightnessRamp[index], .plain)
        }
        let mixed = TerminalColor.rgb(
            UInt8((top.red + bottom.red) / 2), UInt8((top.green + bottom.green) / 2), UInt8((top.blue + bottom.blue) / 2))
        return (" ", Style(foreground: .default, background: mixed))
    }

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
