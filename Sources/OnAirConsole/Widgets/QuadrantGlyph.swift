/// The sixteen quadrant-block characters by mask: bit 0 top left, 1 top right, 2 bottom left, 3 bottom
/// right (the mask of `PreviewImage.QuadrantCell`). All are in the Block Elements range (U+2580–U+259F),
/// which every common monospace font draws cell-filling.
public enum QuadrantGlyph {
    public static let characters: [Character] = [
        " ", "▘", "▝", "▀", "▖", "▌", "▞", "▛", "▗", "▚", "▐", "▜", "▄", "▙", "▟", "█",
    ]

    /// The character for `mask` (low four bits).
    public static func character(_ mask: UInt8) -> Character { characters[Int(mask & 0b1111)] }

    /// The mask `character` draws, or nil for a character that is not a quadrant block.
    public static func mask(of character: Character) -> UInt8? { masks[character] }

    private static let masks: [Character: UInt8] = Dictionary(
        uniqueKeysWithValues: characters.enumerated().map { ($0.element, UInt8($0.offset)) })

    /// How many of the four quadrants `mask` fills.
    public static func filled(_ mask: UInt8) -> Int { (0..<4).filter { mask >> UInt8($0) & 1 == 1 }.count }
}
