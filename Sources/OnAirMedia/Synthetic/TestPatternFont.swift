/// A 5×7 bitmap font for the characters the test pattern burns in: digits, ':' and '.'.
///
/// Why built in: the frame counter and clock must survive encode → wire → decode so that a person (or a
/// test) reading a subscriber's picture can tell which frame it is and how late it is, with no font files.
enum TestPatternFont {
    static let glyphWidth = 5
    static let glyphHeight = 7

    /// Seven rows per glyph, five bits per row, most significant bit on the left.
    static func rows(for character: Character) -> [UInt8]? {
        switch character {
        case "0": return [0b01110, 0b10001, 0b10011, 0b10101, 0b11001, 0b10001, 0b01110]
        case "1": return [0b00100, 0b01100, 0b00100, 0b00100, 0b00100, 0b00100, 0b01110]
        case "2": return [0b01110, 0b10001, 0b00001, 0b00010, 0b00100, 0b01000, 0b11111]
        case "3": return [0b11111, 0b00010, 0b00100, 0b00010, 0b00001, 0b10001, 0b01110]
        case "4": return [0b00010, 0b00110, 0b01010, 0b10010, 0b11111, 0b00010, 0b00010]
        case "5": return [0b11111, 0b10000, 0b11110, 0b00001, 0b00001, 0b10001, 0b01110]
        case "6": return [0b00110, 0b01000, 0b10000, 0b11110, 0b10001, 0b10001, 0b01110]
        case "7": return [0b11111, 0b00001, 0b00010, 0b00100, 0b01000, 0b01000, 0b01000]
        case "8": return [0b01110, 0b10001, 0b10001, 0b01110, 0b10001, 0b10001, 0b01110]
        case "9": return [0b01110, 0b10001, 0b10001, 0b01111, 0b00001, 0b00010, 0b01100]
        case ":": return [0b00000, 0b01100, 0b01100, 0b00000, 0b01100, 0b01100, 0b00000]
        case ".": return [0b00000, 0b00000, 0b00000, 0b00000, 0b00000, 0b01100, 0b01100]
        default: return nil
        }
    }

    /// Draws `text` into a luma plane at (x, y), each font pixel a `scale`×`scale` square; clipped to the plane.
    static func draw(
        _ text: String, into luma: UnsafeMutableBufferPointer<UInt8>, width: Int, height: Int,
        x: Int, y: Int, scale: Int, value: UInt8
    ) {
        var originX = x
        for character in text {
            defer { originX += (glyphWidth + 1) * scale }
            guard let rows = rows(for: character) else { continue }
            for (rowIndex, bits) in rows.enumerated() {
                for column in 0..<glyphWidth where bits & (1 << (glyphWidth - 1 - column)) != 0 {
                    for dy in 0..<scale {
                        let py = y + rowIndex * scale + dy
                        guard py >= 0, py < height else { continue }
                        for dx in 0..<scale {
                            let px = originX + column * scale + dx
                            guard px >= 0, px < width else { continue }
                            luma[py * width + px] = value
                        }
                    }
                }
            }
        }
    }
}
