/// The capital letters the camera-loss slate writes (`CAMERA UNAVAILABLE`), in `TestPatternFont`'s 5×7 grid.
///
/// Why apart from `TestPatternFont`: the test pattern burns in digits only, and its picture must stay
/// byte-identical for the tests that compare decoded frames with `TestPattern.render`.
enum SlateFont {
    static func rows(for character: Character) -> [UInt8]? {
        switch character {
        case "A": [0b01110, 0b10001, 0b10001, 0b11111, 0b10001, 0b10001, 0b10001]
        case "B": [0b11110, 0b10001, 0b10001, 0b11110, 0b10001, 0b10001, 0b11110]
        case "C": [0b01110, 0b10001, 0b10000, 0b10000, 0b10000, 0b10001, 0b01110]
        case "E": [0b11111, 0b10000, 0b10000, 0b11110, 0b10000, 0b10000, 0b11111]
        case "I": [0b01110, 0b00100, 0b00100, 0b00100, 0b00100, 0b00100, 0b01110]
        case "L": [0b10000, 0b10000, 0b10000, 0b10000, 0b10000, 0b10000, 0b11111]
        case "M": [0b10001, 0b11011, 0b10101, 0b10101, 0b10001, 0b10001, 0b10001]
        case "N": [0b10001, 0b11001, 0b10101, 0b10011, 0b10001, 0b10001, 0b10001]
        case "R": [0b11110, 0b10001, 0b10001, 0b11110, 0b10100, 0b10010, 0b10001]
        case "U": [0b10001, 0b10001, 0b10001, 0b10001, 0b10001, 0b10001, 0b01110]
        case "V": [0b10001, 0b10001, 0b10001, 0b10001, 0b10001, 0b01010, 0b00100]
        default: TestPatternFont.rows(for: character)
        }
    }

    /// Draws `text` at (x, y), each font pixel `scale`×`scale`; clipped to the plane.
    static func draw(
        _ text: String, into luma: UnsafeMutableBufferPointer<UInt8>, width: Int, height: Int, x: Int, y: Int, scale: Int, value: UInt8
    ) {
        let glyphWidth = TestPatternFont.glyphWidth
        var originX = x
        for character in text {
            defer { originX += (glyphWidth + 1) * scale }
            guard let rows = rows(for: character) else { continue }
            for (rowIndex, bits) in rows.enumerated() {
                for column in 0..<glyphWidth where bits & (1 << (glyphWidth - 1 - column)) != 0 {
                    let x0 = max(0, originX + column * scale), x1 = min(width, originX + (column + 1) * scale)
                    let y0 = max(0, y + rowIndex * scale), y1 = min(height, y + (rowIndex + 1) * scale)
                    guard x0 < x1, y0 < y1 else { continue }
                    for py in y0..<y1 {
                        for px in x0..<x1 { luma[py * width + px] = value }
                    }
                }
            }
        }
    }
}
