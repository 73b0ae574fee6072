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

    /// The four digits the cells show where `pattern` draws its counter; "?" for a digit that matches no
    /// glyph better than another.
    static func readCounter(_ cells: [[PreviewImage.QuadrantCell]], pattern: TestPattern, skippedRows: Int) -> String {
        let columns = cells[0].count * 2, rows = cells.count * 2
        func isLight(x: Int, y: Int) -> Bool {
            let px = x * columns / pattern.width, py = (y - skippedRows) * rows / (pattern.height - skippedRows)
            let cell = cells[min(rows - 1, max(0, py)) / 2][min(columns - 1, max(0, px)) / 2]
            let bit = UInt8((py % 2) * 2 + px % 2)
            return (cell.mask >> bit & 1 == 1 ? cell.foreground : cell.background).luma >= 128
        }
        let place = pattern.counterGeometry
        return String((0..<TestPattern.CounterGeometry.digits).map { position -> Character in
            let samples = (0..<(BlockDigitFont.glyphWidth * BlockDigitFont.glyphHeight)).map { index in
                let r = place.rect(column: position * (BlockDigitFont.glyphWidth + 1) + index % 3, row: index / 3)
                return isLight(x: (r.x0 + r.x1) / 2, y: (r.y0 + r.y1) / 2)
            }
            return BlockDigitFont.nearestDigit(to: samples)?.digit ?? "?"
        })
    }

    @Test("decoded 1280x720 frames at 1 Mb/s: the counter's four digits read back from 17×5 and 67×19 cells")
    func counterReadsBack() throws {
        let settings = VideoEncoder.Settings(
            width: 1280, height: 720, framesPerSecond: 30, bitrate: 1_000_000, keyframeIntervalSeconds: 2,
            preset: "ultrafast", tune: "zerolatency", threads: 1)
        let encoder = try VideoEncoder(settings)
        let pattern = TestPattern(width: 1280, height: 720, framesPerSecond: 30)
        let decoder = try PacketDecoder(video: encoder.track, audio: nil, previewWidth: 128, previewHeight: 72)
        let skipped = FrameMarker.bandHeight(pictureHeight: 720)
        var read: [Int64: [String]] = [:]
        let first = 12_335
        for index in first..<(first + 40) {
            let milliseconds = Int64(index - first) * 1000 / 30
            for packet in try encoder.encode(pattern.render(frameIndex: index), milliseconds: milliseconds, forceKeyframe: false) {
                guard case let .picture(picture) = try decoder.decode(packet) else { continue }
                read[picture.decodeTimestamp] = Self.cellSizes.map {
                    Self.readCounter(picture.preview.quadrantCells(columns: $0.columns, rows: $0.rows), pattern: pattern, skippedRows: skipped)
                }
            }
        }
        #expect(read.count == 40)
        for (milliseconds, texts) in read {
            let index = first + Int((milliseconds * 30 + 999) / 1000)
            let expected = String(TestPattern.counterText(index).suffix(4))
            #expect(texts == [expected, expected], "frame \(index)")
        }
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
}
