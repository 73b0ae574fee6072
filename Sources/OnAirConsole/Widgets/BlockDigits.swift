import OnAirCore

/// Large digits drawn in quadrant blocks with the 3×5 `BlockDigitFont`: a digit is 2 cells wide (3 pixels
/// and a 1-pixel gap on its left) and 3 rows tall, a colon 1 cell; at `scale` 2 each font pixel is a
/// whole 2×2 quadrant cell, twice the size. The console's timecode beside the preview: readable from
/// across a room, or over an SSH session where the picture itself is small.
public struct BlockDigits: Widget {
    public var text: String
    public var scale: Int
    public var role: ThemeRole

    public init(_ text: String, scale: Int = 1, role: ThemeRole = .value) {
        self.text = text
        self.scale = max(1, scale)
        self.role = role
    }

    /// Font pixels across: a 1-pixel gap before each glyph, then its width (1 for a colon).
    static func pixelWidth(of character: Character) -> Int { character == ":" ? 2 : BlockDigitFont.glyphWidth + 1 }

    /// The cells `text` takes at `scale`.
    public static func size(of text: String, scale: Int = 1) -> (columns: Int, rows: Int) {
        let pixels = text.reduce(0) { $0 + pixelWidth(of: $1) }
        return ((pixels * scale + 1) / 2, (BlockDigitFont.glyphHeight * scale + 1) / 2)
    }

    public func render(in area: Rect, into buffer: inout CellBuffer, theme: Theme) {
        guard !area.isEmpty else { return }
        let size = Self.size(of: text, scale: scale)
        // The text as one row of font pixels: where each glyph starts and which glyph it is.
        var starts: [(x: Int, character: Character)] = []
        var x = 0
        for character in text {
            starts.append((x + 1, character))
            x += Self.pixelWidth(of: character)
        }
        func isSet(_ px: Int, _ py: Int) -> Bool {
            let fx = px / scale, fy = py / scale
            guard let glyph = starts.last(where: { $0.x <= fx }) else { return false }
            let column = fx - glyph.x
            return glyph.character == ":" ? column == 0 && BlockDigitFont.isSet(":", column: 1, row: fy)
                : BlockDigitFont.isSet(glyph.character, column: column, row: fy)
        }
        let style = theme[role]
        if theme.asciiOnly {
            // ASCII has no quadrant blocks: their stand-ins ('^', '[', '#') lose the strokes. Plain
            // digits, centred where the big ones would be, stay readable.
            let spot = area.centered(width: min(area.width, text.count), height: 1)
            var bold = style
            bold.attributes.insert(.bold)
            buffer.write(text, in: spot, style: bold)
            return
        }
        for row in 0..<min(size.rows, area.height) {
            for column in 0..<min(size.columns, area.width) {
                var mask: UInt8 = 0
                for (bit, (dx, dy)) in [(0, 0), (1, 0), (0, 1), (1, 1)].enumerated() where isSet(column * 2 + dx, row * 2 + dy) {
                    mask |= 1 << UInt8(bit)
                }
                buffer.put(QuadrantGlyph.character(mask), x: area.x + column, y: area.y + row, style: style, clip: area)
            }
        }
    }
}
