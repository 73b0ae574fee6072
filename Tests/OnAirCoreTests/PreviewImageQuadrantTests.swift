import OnAirCore
import Testing

@Suite("preview cells: quadrant blocks and the block-digit font")
struct PreviewImageQuadrantTests {
    typealias RGB = PreviewImage.RGB

    /// A picture from rows of luma values (grey pixels).
    static func grey(_ rows: [[UInt8]]) -> PreviewImage {
        PreviewImage(width: rows[0].count, height: rows.count, rgb: rows.flatMap { $0.flatMap { [$0, $0, $0] } })
    }

    @Test("one white pixel of four: the top-left quadrant ▘ in white on black")
    func singleQuadrant() {
        let cells = Self.grey([[255, 0], [0, 0]]).quadrantCells(columns: 1, rows: 1)
        #expect(cells == [[PreviewImage.QuadrantCell(mask: 0b0001, foreground: RGB(255, 255, 255), background: RGB(0, 0, 0))]])
    }

    @Test("a diagonal and three of four pixels pick their masks; the colours are the lightest and darkest pixels'")
    func masks() {
        let cells = Self.grey([[255, 0, 200, 200], [0, 255, 0, 220]]).quadrantCells(columns: 2, rows: 1)
        #expect(cells[0][0].mask == 0b1001 && cells[0][0].foreground == RGB(255, 255, 255))
        #expect(cells[0][1].mask == 0b1011, "the light pixels are the foreground")
        #expect(cells[0][1].foreground == RGB(215, 215, 215), "220 to the cube level 215")
        #expect(cells[0][1].background == RGB(0, 0, 0))
    }

    @Test("a one-colour cell shares the pair of white-on-black strokes: dark as a space under white, light as a full block on black")
    func canonicalUniformCells() {
        let cells = Self.grey([[255, 0, 0, 0, 255, 255], [0, 0, 0, 0, 255, 255]]).quadrantCells(columns: 3, rows: 1)
        let white = RGB(255, 255, 255), black = RGB(0, 0, 0)
        #expect(cells[0][0] == .init(mask: 0b0001, foreground: white, background: black))
        #expect(cells[0][1] == .init(mask: 0, foreground: white, background: black), "black: a space, same pair")
        #expect(cells[0][2] == .init(mask: 0b1111, foreground: white, background: black), "white: a full block, same pair")
    }

    @Test("an encoder's few units of noise do not split a cell")
    func noiseStaysOneColour() {
        let cells = Self.grey([[120, 131], [125, 140]]).quadrantCells(columns: 1, rows: 1)
        #expect(cells[0][0].mask == 0b1111)
        #expect(cells[0][0].foreground == RGB(135, 135, 135), "mean 129 to the cube level 135")
    }

    @Test("the 3×5 digit font: every digit reads back as itself, and a one-sample error still reads")
    func digitFont() {
        for digit in "0123456789" {
            var bits = (0..<15).map { BlockDigitFont.isSet(digit, column: $0 % 3, row: $0 / 3) }
            #expect(BlockDigitFont.nearestDigit(to: bits)?.digit == digit)
            #expect(BlockDigitFont.nearestDigit(to: bits)?.distance == 0)
            bits[0].toggle()
            #expect(BlockDigitFont.nearestDigit(to: bits).map { $0.digit == digit || $0.distance > 0 } ?? true)
        }
        #expect(BlockDigitFont.rows(for: "x") == nil)
    }
}
