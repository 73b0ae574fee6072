/// A grid of cells the widgets draw into: the whole screen as plain data.
///
/// Everything the console shows is first rendered here; tests read it back as text, and the terminal
/// backend only blits the cells that differ from the previous frame (ratatui's `Buffer`).
/// Writes outside the buffer are clipped, never trapped, so a widget can't crash a small screen.
public struct CellBuffer: Sendable, Equatable {
    public let width: Int
    public let height: Int
    public private(set) var cells: [Cell]

    public init(width: Int, height: Int, fill: Cell = .blank) {
        self.width = max(0, width)
        self.height = max(0, height)
        cells = Array(repeating: fill, count: self.width * self.height)
    }

    /// The whole buffer as a rectangle.
    public var area: Rect { Rect(x: 0, y: 0, width: width, height: height) }

    /// The cell at (x, y); a blank cell outside the buffer.
    public subscript(x: Int, y: Int) -> Cell {
        guard x >= 0, x < width, y >= 0, y < height else { return .blank }
        return cells[y * width + x]
    }

    /// Puts one character at (x, y), clipped to `clip`. A wide character that does not fit becomes a space;
    /// overwriting half of a wide character blanks the other half. Returns the columns used.
    @discardableResult
    public mutating func put(_ character: Character, x: Int, y: Int, style: Style, clip: Rect? = nil) -> Int {
        let bounds = clip.map { $0.intersection(area) } ?? area
        let w = DisplayWidth.of(character)
        guard w > 0 else { return 0 }
        guard bounds.contains(x: x, y: y) else { return w }
        if w == 2 && !bounds.contains(x: x + 1, y: y) {
            setCell(x: x, y: y, Cell(" ", style: style))
            return 1
        }
        setCell(x: x, y: y, Cell(character, style: style))
        if w == 2 { setCell(x: x + 1, y: y, Cell(" ", style: style, isContinuation: true)) }
        return w
    }

    /// Writes `text` on one row from (x, y), clipped to `clip` (or to the buffer) and never wrapping.
    /// Control characters are shown as `?` so untrusted text (server messages) cannot move the cursor.
    /// Returns the column after the last character written.
    @discardableResult
    public mutating func write(_ text: some StringProtocol, x: Int, y: Int, style: Style, clip: Rect? = nil) -> Int {
        let bounds = clip.map { $0.intersection(area) } ?? area
        if let column = writeASCII(text, x: x, y: y, style: style, bounds: bounds) { return column }
        var column = x
        for character in text {
            if column >= bounds.maxX { break }
            let shown: Character = character.unicodeScalars.first.map { $0.value < 0x20 || $0.value == 0x7F } == true ? "?" : character
            column += put(shown, x: column, y: y, style: style, clip: bounds)
        }
        return column
    }

    /// `write` for text that is all ASCII, from its bytes: no grapheme breaking and no width lookup per
    /// character, which were most of a redraw's text cost. The same cells as the general path: every byte
    /// one column, a control character `?`, and CR LF (one grapheme) one `?`. Nil when the text holds any
    /// other byte or is not contiguous UTF-8.
    private mutating func writeASCII(_ text: some StringProtocol, x: Int, y: Int, style: Style, bounds: Rect) -> Int? {
        let written: Int?? = text.utf8.withContiguousStorageIfAvailable { bytes -> Int? in
            guard bytes.allSatisfy({ $0 < 0x80 }) else { return nil }
            var column = x
            var index = 0
            while index < bytes.count, column < bounds.maxX {
                let byte = bytes[index]
                index += 1
                let control = DisplayWidth.isASCIIControl(byte)
                if byte == 0x0D, index < bytes.count, bytes[index] == 0x0A { index += 1 }
                if bounds.contains(x: column, y: y) {
                    setCell(x: column, y: y, Cell(control ? "?" : Self.asciiCharacters[Int(byte)], style: style))
                }
                column += 1
            }
            return column
        }
        return written ?? nil
    }

    /// Every ASCII byte as a `Character`, made once.
    private static let asciiCharacters: [Character] = (0..<128).map { Character(Unicode.Scalar(UInt8($0))) }

    /// Writes `text` into a one-row area, truncated with an ellipsis if it does not fit.
    @discardableResult
    public mutating func write(_ text: String, in rect: Rect, style: Style) -> Int {
        guard !rect.isEmpty else { return rect.x }
        return write(DisplayWidth.truncate(text, to: rect.width), x: rect.x, y: rect.y, style: style, clip: rect)
    }

    /// Fills an area with one character and style.
    public mutating func fill(_ rect: Rect, with character: Character = " ", style: Style) {
        let r = rect.intersection(area)
        guard !r.isEmpty else { return }
        if DisplayWidth.of(character) == 1 {
            // What `put` does for a one-column character inside the area, without asking each cell again.
            let cell = Cell(character, style: style)
            for row in r.y..<r.maxY {
                for column in r.x..<r.maxX { setCell(x: column, y: row, cell) }
            }
            return
        }
        for row in r.y..<r.maxY {
            var column = r.x
            while column < r.maxX { column += max(1, put(character, x: column, y: row, style: style, clip: r)) }
        }
    }

    /// Changes the style of an area, keeping its characters (a focus highlight, a dimmed backdrop).
    public mutating func restyle(_ rect: Rect, _ transform: (Style) -> Style) {
        let r = rect.intersection(area)
        guard !r.isEmpty else { return }
        for row in r.y..<r.maxY {
            for column in r.x..<r.maxX { cells[row * width + column].style = transform(cells[row * width + column].style) }
        }
    }

    private mutating func setCell(x: Int, y: Int, _ cell: Cell) {
        let index = y * width + x
        // Breaking a wide character in half leaves a blank rather than half a glyph.
        if cells[index].isContinuation, x > 0, !cell.isContinuation {
            cells[index - 1] = Cell(" ", style: cells[index - 1].style)
        }
        // Overwriting a wide character's left half (with anything, a right half included) blanks its right
        // half, the continuation cell after it, so every continuation has a wide character on its left.
        if x + 1 < width, cells[index + 1].isContinuation, !cells[index].isContinuation {
            cells[index + 1] = Cell(" ", style: cells[index + 1].style)
        }
        cells[index] = cell
    }

    /// The rows as text, continuation cells skipped, trailing spaces removed: what a snapshot compares.
    public func textLines(trimmingTrailingSpaces: Bool = true) -> [String] {
        (0..<height).map { row in
            var line = ""
            for column in 0..<width where !cells[row * width + column].isContinuation {
                line.append(cells[row * width + column].character)
            }
            guard trimmingTrailingSpaces else { return line }
            while line.last == " " { line.removeLast() }
            return line
        }
    }

    /// The whole buffer as text, one line per row.
    public var text: String { textLines().joined(separator: "\n") }

    /// A changed cell of a frame diff.
    public struct Change: Sendable, Equatable {
        public var x: Int
        public var y: Int
        public var cell: Cell
    }

    /// The cells that differ from `previous` (all of them when the size changed), continuation cells excluded:
    /// what a backend must write to turn the previous frame into this one.
    public func changes(since previous: CellBuffer?) -> [Change] {
        var result: [Change] = []
        let full = previous.map { $0.width != width || $0.height != height } ?? true
        for row in 0..<height {
            for column in 0..<width {
                let index = row * width + column
                let cell = cells[index]
                if !full, let previous, previous.cells[index] == cell { continue }
                if cell.isContinuation {
                    // A changed right half means the wide character on its left must be written again.
                    if column > 0, let last = result.last, last.x == column - 1, last.y == row { continue }
                    if column > 0 { result.append(Change(x: column - 1, y: row, cell: cells[index - 1])) }
                    continue
                }
                result.append(Change(x: column, y: row, cell: cell))
            }
        }
        return result
    }
}
