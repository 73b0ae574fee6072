/// One terminal cell: what it shows and how.
///
/// A wide character (two columns) is stored in its first cell; the cell to its right is a continuation
/// that the backend skips, so a diff never splits a wide character in half.
public struct Cell: Sendable, Hashable {
    /// The grapheme drawn here: a single character, possibly with combining marks.
    public var character: Character
    public var style: Style
    /// True for the right half of a wide character.
    public var isContinuation: Bool

    public init(_ character: Character = " ", style: Style = .plain, isContinuation: Bool = false) {
        self.character = character
        self.style = style
        self.isContinuation = isContinuation
    }

    public static let blank = Cell()
}
