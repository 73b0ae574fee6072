import OnAirControl
import Testing

/// Issue 29 item 5: stdin lines are bounded as they stream in; a long line is skipped and named by its
/// length and first bytes, and the lines after it are taken as usual — fed all at once or byte by byte.
@Suite("Stdin line splitter")
struct StdinLineSplitterTests {
    static func split(_ input: [UInt8], byteByByte: Bool) -> [StdinLineSplitter.Line] {
        var splitter = StdinLineSplitter()
        var lines: [StdinLineSplitter.Line] = []
        if byteByByte {
            for byte in input { lines += splitter.feed([byte]) }
        } else {
            lines += splitter.feed(input)
        }
        if let last = splitter.finish() { lines.append(last) }
        return lines
    }

    @Test("lines, CRLF, a last line without newline", arguments: [false, true])
    func plainLines(byteByByte: Bool) {
        #expect(Self.split(Array("stats\r\nlink-down\nquit".utf8), byteByByte: byteByByte) == [.text("stats"), .text("link-down"), .text("quit")])
    }

    @Test("a 10 MB line is skipped as it streams, reported by length and 40 bytes, and quit after it is taken",
          arguments: [false, true])
    func longLine(byteByByte: Bool) {
        let long = [UInt8](repeating: UInt8(ascii: "x"), count: byteByByte ? 20_000 : 10_000_000)
        let lines = Self.split(long + Array("\nquit\n".utf8), byteByByte: byteByByte)
        #expect(lines == [.tooLong(bytes: long.count, prefix: String(repeating: "x", count: 40)), .text("quit")])
    }

    @Test("a line exactly at the bound passes; one byte more does not")
    func boundary() {
        let atBound = [UInt8](repeating: UInt8(ascii: "a"), count: StdinLineSplitter.maxLineBytes)
        #expect(Self.split(atBound + [0x0A], byteByByte: false) == [.text(String(repeating: "a", count: StdinLineSplitter.maxLineBytes))])
        let lines = Self.split(atBound + [UInt8(ascii: "a"), 0x0A], byteByByte: false)
        #expect(lines == [.tooLong(bytes: StdinLineSplitter.maxLineBytes + 1, prefix: String(repeating: "a", count: 40))])
    }
}
