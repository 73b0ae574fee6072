/// A 3×5 bitmap font for digits and `:`, the smallest that stays readable: the test pattern draws its frame
/// counter with it (huge, so it survives a preview a few cells tall) and the console draws its large-digit
/// timecode with it in quadrant blocks (2×3 cells a digit). One font for both, so what the picture shows
/// and what the timecode beside it shows look alike, and a test can read either back by template matching.
public enum BlockDigitFont {
    public static let glyphWidth = 3
    public static let glyphHeight = 5

    /// Five rows per glyph, three bits per row, most significant bit on the left.
    public static func rows(for character: Character) -> [UInt8]? {
        switch character {
        case "0": [0b111, 0b101, 0b101, 0b101, 0b111]
        case "1": [0b010, 0b110, 0b010, 0b010, 0b111]
        case "2": [0b111, 0b001, 0b111, 0b100, 0b111]
        case "3": [0b111, 0b001, 0b011, 0b001, 0b111]
        case "4": [0b101, 0b101, 0b111, 0b001, 0b001]
        case "5": [0b111, 0b100, 0b111, 0b001, 0b111]
        case "6": [0b111, 0b100, 0b111, 0b101, 0b111]
        case "7": [0b111, 0b001, 0b010, 0b010, 0b010]
        case "8": [0b111, 0b101, 0b111, 0b101, 0b111]
        case "9": [0b111, 0b101, 0b111, 0b001, 0b111]
        case ":": [0b000, 0b010, 0b000, 0b010, 0b000]
        default: nil
        }
    }

    /// Whether font pixel (`column`, `row`) of `character` is set; false outside the glyph.
    public static func isSet(_ character: Character, column: Int, row: Int) -> Bool {
        guard let rows = rows(for: character), (0..<glyphWidth).contains(column), (0..<glyphHeight).contains(row) else { return false }
        return rows[row] >> UInt8(glyphWidth - 1 - column) & 1 == 1
    }

    /// The digit whose glyph is nearest to `bits` (15 samples, row by row), with the number of samples that
    /// differ; nil when two digits are equally near. Why: reading digits back from a downscaled picture is
    /// the test that it is still legible.
    public static func nearestDigit(to bits: [Bool]) -> (digit: Character, distance: Int)? {
        guard bits.count == glyphWidth * glyphHeight else { return nil }
        let scored = "0123456789".map { digit -> (Character, Int) in
            var distance = 0
            for row in 0..<glyphHeight {
                for column in 0..<glyphWidth where isSet(digit, column: column, row: row) != bits[row * glyphWidth + column] {
                    distance += 1
                }
            }
            return (digit, distance)
        }.sorted { $0.1 < $1.1 }
        guard scored[0].1 < scored[1].1 else { return nil }
        return (scored[0].0, scored[0].1)
    }
}
