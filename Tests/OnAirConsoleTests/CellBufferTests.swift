@testable import OnAirConsole
import Testing

@Suite("CellBuffer")
struct CellBufferTests {
    @Test("text is clipped at the buffer's edge and never wraps")
    func clipsAtEdge() {
        var buffer = CellBuffer(width: 5, height: 2)
        let end = buffer.write("abcdefgh", x: 2, y: 0, style: .plain)
        #expect(buffer.textLines() == ["  abc", ""])
        #expect(end == 5)
        buffer.write("xyz", x: -1, y: 1, style: .plain)
        #expect(buffer.textLines()[1] == "yz")
        buffer.write("never", x: 0, y: 7, style: .plain)
        #expect(buffer.textLines() == ["  abc", "yz"])
    }

    @Test("box drawing, half blocks and sparkline levels take one column each")
    func narrowSymbols() {
        var buffer = CellBuffer(width: 12, height: 1)
        let end = buffer.write("┏━▀▄▁▂▃▄▅▆▇█", x: 0, y: 0, style: .plain)
        #expect(end == 12)
        #expect(buffer.text == "┏━▀▄▁▂▃▄▅▆▇█")
    }

    @Test("a wide character takes two cells; one that does not fit becomes a space")
    func wideCharacters() {
        var buffer = CellBuffer(width: 5, height: 1)
        let end = buffer.write("界界界", x: 0, y: 0, style: .plain)
        #expect(end == 5)
        #expect(buffer.text == "界界")
        #expect(buffer[1, 0].isContinuation)
        #expect(!buffer[4, 0].isContinuation && buffer[4, 0].character == " ")
    }

    @Test("overwriting half of a wide character blanks the other half")
    func splittingWideCharacter() {
        var buffer = CellBuffer(width: 4, height: 1)
        buffer.write("界", x: 0, y: 0, style: .plain)
        buffer.put("x", x: 1, y: 0, style: .plain)
        #expect(buffer.text == " x")
        buffer.write("界", x: 2, y: 0, style: .plain)
        buffer.put("y", x: 2, y: 0, style: .plain)
        #expect(buffer.text == " xy")
        #expect(!buffer[3, 0].isContinuation)
    }

    @Test("a wide character written one column left of another leaves no right half without its left")
    func wideOverWide() {
        var buffer = CellBuffer(width: 5, height: 1)
        buffer.write("字", x: 1, y: 0, style: .plain)
        buffer.write("漢", x: 0, y: 0, style: .plain)
        #expect(buffer[1, 0].isContinuation)
        #expect(!buffer[2, 0].isContinuation, "the right half of the overwritten 字 stayed")
        #expect(buffer.textLines(trimmingTrailingSpaces: false) == ["漢   "])
    }

    /// The general path, one grapheme at a time, as `write` did it for all text before its ASCII path: the
    /// buffer and the column after the text.
    static func writtenByCharacter(_ text: String, x: Int, clip: Rect, width: Int) -> (buffer: CellBuffer, column: Int) {
        var buffer = CellBuffer(width: width, height: 1)
        var column = x
        for character in text {
            if column >= clip.intersection(buffer.area).maxX { break }
            let control = character.unicodeScalars.first.map { $0.value < 0x20 || $0.value == 0x7F } == true
            column += buffer.put(control ? "?" : character, x: column, y: 0, style: .plain, clip: clip.intersection(buffer.area))
        }
        return (buffer, column)
    }

    @Test("ASCII text (controls and CR LF included) fills the cells the per-grapheme path fills, at any start and clip")
    func asciiPathMatchesGraphemePath() {
        var generator = SystemRandomNumberGenerator()
        let alphabet: [String] = ["a", "Z", " ", "?", "\r\n", "\r", "\n", "\t", "\u{1B}", "\u{7F}", "\u{0}", "~"]
        for _ in 0..<500 {
            let text = (0..<Int.random(in: 0...30, using: &generator)).map { _ in alphabet.randomElement(using: &generator)! }.joined()
            let x = Int.random(in: -5...25, using: &generator)
            let clip = Rect(x: Int.random(in: -2...10, using: &generator), y: 0, width: Int.random(in: 0...25, using: &generator), height: 1)
            var buffer = CellBuffer(width: 20, height: 1)
            let column = buffer.write(text, x: x, y: 0, style: .plain, clip: clip)
            let expected = Self.writtenByCharacter(text, x: x, clip: clip, width: 20)
            #expect(buffer == expected.buffer, "\(text.debugDescription) at \(x) in \(clip)")
            #expect(column == expected.column, "\(text.debugDescription) at \(x) in \(clip)")
            if buffer != expected.buffer || column != expected.column { return }
        }
    }

    @Test("ASCII text's width and truncation from its bytes are the per-grapheme ones (controls and CR LF included)")
    func asciiWidthMatchesGraphemes() {
        var generator = SystemRandomNumberGenerator()
        let alphabet: [String] = ["a", " ", "\r\n", "\r", "\n", "\t", "\u{1B}", "\u{7F}", "~"]
        for _ in 0..<500 {
            let text = (0..<Int.random(in: 0...20, using: &generator)).map { _ in alphabet.randomElement(using: &generator)! }.joined()
            let perGrapheme = text.reduce(0) { $0 + DisplayWidth.of($1) }
            #expect(DisplayWidth.of(text) == perGrapheme, "\(text.debugDescription)")
            let columns = Int.random(in: 0...12, using: &generator)
            var kept = "", used = 0
            for character in text {
                let width = DisplayWidth.of(character)
                if used + width > columns { break }
                kept.append(character)
                used += width
            }
            #expect(DisplayWidth.asciiPrefix(text, columns: columns) == kept, "\(text.debugDescription) in \(columns)")
            if DisplayWidth.of(text) != perGrapheme || DisplayWidth.asciiPrefix(text, columns: columns) != kept { return }
        }
        #expect(DisplayWidth.asciiWidth("ab界") == nil)
        #expect(DisplayWidth.truncate("publisherIsDisconnected", to: 8) == "publish…")
    }

    @Test("control characters in untrusted text are shown as '?'")
    func controlCharacters() {
        var buffer = CellBuffer(width: 10, height: 1)
        buffer.write("a\u{1B}[2Jb", x: 0, y: 0, style: .plain)
        #expect(buffer.text == "a?[2Jb")
    }

    @Test("write(in:) truncates with an ellipsis")
    func truncates() {
        var buffer = CellBuffer(width: 10, height: 1)
        buffer.write("publisherIsDisconnected", in: Rect(x: 0, y: 0, width: 8, height: 1), style: .plain)
        #expect(buffer.text == "publish…")
        #expect(DisplayWidth.truncate("界界界", to: 4) == "界…")
        #expect(DisplayWidth.pad("ab", to: 4) == "ab  ")
    }

    @Test("changes lists only differing cells, everything after a size change")
    func changes() {
        var a = CellBuffer(width: 4, height: 2)
        a.write("abcd", x: 0, y: 0, style: .plain)
        var b = a
        b.put("X", x: 2, y: 1, style: .plain)
        b.put("a", x: 0, y: 0, style: Style(attributes: [.bold]))
        let changes = b.changes(since: a)
        #expect(changes.map { [$0.x, $0.y] } == [[0, 0], [2, 1]])
        #expect(b.changes(since: b).isEmpty)
        #expect(b.changes(since: nil).count == 8)
        #expect(b.changes(since: CellBuffer(width: 3, height: 2)).count == 8)
    }

    @Test("a changed wide character is written once, from its first cell")
    func wideChanges() {
        let a = CellBuffer(width: 4, height: 1)
        var b = a
        b.write("界", x: 1, y: 0, style: .plain)
        let changes = b.changes(since: a)
        #expect(changes.map(\.x) == [1])
        #expect(changes.first?.cell.character == "界")
    }

    @Test("fill and restyle stay inside the buffer")
    func fillAndRestyle() {
        var buffer = CellBuffer(width: 3, height: 2)
        buffer.fill(Rect(x: 1, y: 0, width: 10, height: 10), with: "#", style: .plain)
        #expect(buffer.textLines() == [" ##", " ##"])
        buffer.restyle(Rect(x: -5, y: -5, width: 6, height: 6)) { _ in Style(attributes: [.reverse]) }
        #expect(buffer[0, 0].style.attributes == [.reverse])
        #expect(buffer[2, 1].style.attributes == [])
    }
}

@Suite("Rect and layout")
struct LayoutTests {
    let area = Rect(x: 0, y: 0, width: 80, height: 24)

    @Test("rows: fixed lengths first, then fills share the rest, never more than the area")
    func rows() {
        let parts = area.rows([.length(1), .fill, .length(1)])
        #expect(parts.map(\.height) == [1, 22, 1])
        #expect(parts.map(\.y) == [0, 1, 23])
        let tiny = Rect(x: 0, y: 0, width: 10, height: 2).rows([.length(3), .length(3), .fill])
        #expect(tiny.map(\.height) == [2, 0, 0])
    }

    @Test("columns: percentages and fills")
    func columns() {
        let parts = area.columns([.percentage(50), .fill])
        #expect(parts.map(\.width) == [40, 40])
        let three = Rect(x: 5, y: 0, width: 10, height: 1).columns([.fill, .fill, .fill])
        #expect(three.map(\.width) == [4, 3, 3])
        #expect(three.map(\.x) == [5, 9, 12])
    }

    @Test("centered, inset and intersection clamp to the area")
    func helpers() {
        #expect(area.centered(width: 20, height: 4) == Rect(x: 30, y: 10, width: 20, height: 4))
        #expect(area.centered(width: 200, height: 40) == area)
        #expect(Rect(x: 0, y: 0, width: 1, height: 1).inset().isEmpty)
        #expect(area.intersection(Rect(x: 70, y: 20, width: 20, height: 20)) == Rect(x: 70, y: 20, width: 10, height: 4))
        #expect(Rect(x: 0, y: 0, width: -3, height: 2).width == 0)
    }
}
