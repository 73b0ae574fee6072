import OnAirCore
import Testing
@testable import OnAirMedia

/// The test pattern's huge counter read back from the console's preview cells, the way a person reads it:
/// the pattern is encoded and decoded, shrunk to the preview picture the console is given, cut into the
/// quadrant cells the console draws at 80×24, and each digit's 3×5 font pixels are sampled from those cells
/// and matched against the font. If the digits get too small or too blurred to read, this fails.
@Suite("test pattern: the frame counter is legible in an 80×24 preview")
struct TestPatternLegibilityTests {
    /// The picture's cells beside the info rows at 80×24 (5 rows, 17 columns for 16:9: see the console's
    /// `demo-focus-publisher-80x24` snapshot), and below them at 160×48.
    static let cellSizes = [(columns: 17, rows: 5), (columns: 67, rows: 19)]

    /// The text the cells show where `pattern` draws `layout` (digits and one-column colons) at `place`; "?"
    /// for a digit that matches no glyph better than another. A colon is read as a colon when its two dots
    /// show (any light preview pixel: a dot is a small mark) and the rows above and below it are dark.
    static func readBlockText(
        _ cells: [[PreviewImage.QuadrantCell]], pattern: TestPattern, skippedRows: Int, place: TestPattern.CounterGeometry, layout: String
    ) -> String {
        let columns = cells[0].count * 2, rows = cells.count * 2
        func isLight(column px: Int, row py: Int) -> Bool {
            let cell = cells[py / 2][px / 2]
            let bit = UInt8((py % 2) * 2 + px % 2)
            return (cell.mask >> bit & 1 == 1 ? cell.foreground : cell.background).luma >= 128
        }
        /// A font pixel is light when most of the preview pixels whose centres it covers are: a reader takes
        /// in the whole stroke, not one point on a cell boundary.
        func sample(column: Int, row: Int, anyLight: Bool = false) -> Bool {
            let r = place.rect(column: column, row: row)
            let xs = (0..<columns).filter { (r.x0..<r.x1).contains(($0 * 2 + 1) * pattern.width / (columns * 2)) }
            let ys = (0..<rows).filter {
                (r.y0..<r.y1).contains(skippedRows + ($0 * 2 + 1) * (pattern.height - skippedRows) / (rows * 2))
            }
            let votes = xs.flatMap { x in ys.map { y in isLight(column: x, row: y) } }
            return anyLight ? votes.contains(true) : votes.filter { $0 }.count * 2 > votes.count
        }
        var first = 0
        return String(layout.map { character -> Character in
            defer { first += TestPattern.CounterGeometry.fontWidth(of: character) + 1 }
            if character == ":" {
                let column = (0..<BlockDigitFont.glyphHeight).map { sample(column: first, row: $0, anyLight: true) }
                return column[1] && column[3] && !column[0] && !column[4] ? ":" : "?"
            }
            let samples = (0..<(BlockDigitFont.glyphWidth * BlockDigitFont.glyphHeight)).map {
                sample(column: first + $0 % 3, row: $0 / 3)
            }
            return BlockDigitFont.nearestDigit(to: samples)?.digit ?? "?"
        })
    }

    /// The four digits of the huge counter.
    static func readCounter(_ cells: [[PreviewImage.QuadrantCell]], pattern: TestPattern, skippedRows: Int) -> String {
        readBlockText(cells, pattern: pattern, skippedRows: skippedRows, place: pattern.counterGeometry, layout: "0000")
    }

    /// The big `HH:MM:SS` clock.
    static func readClock(_ cells: [[PreviewImage.QuadrantCell]], pattern: TestPattern, skippedRows: Int) -> String {
        readBlockText(cells, pattern: pattern, skippedRows: skippedRows, place: pattern.clockGeometry, layout: "00:00:00")
    }

    @Test("decoded 1280x720 frames at 1 Mb/s: the counter reads back from 17×5 and 67×19 cells, the HH:MM:SS clock from 67×19")
    func counterReadsBack() throws {
        let settings = VideoEncoder.Settings(
            width: 1280, height: 720, framesPerSecond: 30, bitrate: 1_000_000, keyframeIntervalSeconds: 2,
            preset: "ultrafast", tune: "zerolatency", threads: 1)
        let encoder = try VideoEncoder(settings)
        let pattern = TestPattern(width: 1280, height: 720, framesPerSecond: 30)
        let decoder = try PacketDecoder(video: encoder.track, audio: nil, previewWidth: 128, previewHeight: 72)
        let skipped = FrameMarker.bandHeight(pictureHeight: 720)
        var read: [Int64: [String]] = [:]
        var clocks: [Int64: String] = [:]
        let first = 12_335
        for index in first..<(first + 40) {
            let milliseconds = Int64(index - first) * 1000 / 30
            for packet in try encoder.encode(pattern.render(frameIndex: index), milliseconds: milliseconds, forceKeyframe: false) {
                guard case let .picture(picture) = try decoder.decode(packet) else { continue }
                read[picture.decodeTimestamp] = Self.cellSizes.map {
                    Self.readCounter(picture.preview.quadrantCells(columns: $0.columns, rows: $0.rows), pattern: pattern, skippedRows: skipped)
                }
                let large = Self.cellSizes[1]
                clocks[picture.decodeTimestamp] = Self.readClock(
                    picture.preview.quadrantCells(columns: large.columns, rows: large.rows), pattern: pattern, skippedRows: skipped)
            }
        }
        #expect(read.count == 40)
        for (milliseconds, texts) in read {
            let index = first + Int((milliseconds * 30 + 999) / 1000)
            let expected = String(TestPattern.counterText(index).suffix(4))
            #expect(texts == [expected, expected], "frame \(index)")
            let clock = String(TestPattern.clockText(frameIndex: index, framesPerSecond: 30).prefix(8))
            #expect(clocks[milliseconds] == clock, "frame \(index)")
        }
        #expect(Set(clocks.values).count >= 2, "the clock ticks over within the 40 frames")
    }

    @Test("the counter is the lower half of the picture, its font pixels one 80×24 preview cell across and one pixel down")
    func counterGeometry() {
        for (width, height) in [(1280, 720), (640, 360), (320, 180)] {
            let place = TestPattern(width: width, height: height, framesPerSecond: 30).counterGeometry
            let last = place.rect(column: TestPattern.CounterGeometry.fontColumns - 1, row: BlockDigitFont.glyphHeight - 1)
            #expect(last.x1 <= width && last.y1 == height, "\(width)x\(height)")
            #expect((last.y1 - place.rect(column: 0, row: 0).y0) * 2 >= height - FrameMarker.bandHeight(pictureHeight: height) - 1)
            #expect(abs(place.pixelWidth - Double(width) / 17) < 0.001)
        }
    }

    @Test("the clock lies above the counter, clear of its 80×24 cells, its font pixels 1.5 cells of the 160×48 preview across and 2 pixels (one cell) down")
    func clockGeometry() {
        for (width, height) in [(1280, 720), (640, 360), (320, 180)] {
            let pattern = TestPattern(width: width, height: height, framesPerSecond: 30)
            let clock = pattern.clockGeometry, counter = pattern.counterGeometry
            let first = clock.rect(column: 0, row: 0)
            let last = clock.rect(column: TestPattern.CounterGeometry.clockFontColumns - 1, row: BlockDigitFont.glyphHeight - 1)
            let skipped = FrameMarker.bandHeight(pictureHeight: height)
            #expect(first.y0 >= skipped && last.y1 < counter.rect(column: 0, row: 0).y0, "\(width)x\(height)")
            // At 80×24 (10 preview pixel rows) it may reach a fifth into row 4, no further: row 4 shares its
            // cells with the counter's top row (row 5).
            #expect(Double(last.y1 - skipped) <= Double(height - skipped) * 4.25 / 10, "\(width)x\(height)")
            #expect(last.x1 <= width, "\(width)x\(height)")
            #expect(clock.pixelWidth >= 1.5 * Double(width) / 67 - 0.001, "at least 1.5 cells of 160×48 across")
            #expect(clock.pixelHeight >= 2 * Double(height - FrameMarker.bandHeight(pictureHeight: height)) / 38 - 0.001)
        }
    }
}
