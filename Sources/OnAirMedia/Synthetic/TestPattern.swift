import OnAirCore

/// The synthetic picture: 75 % colour bars in the top fifth, then on black a grey line with the six-digit
/// frame counter and the clock with milliseconds, beside it the clock `HH:MM:SS` big, and under them the
/// counter's last four digits huge, filling the lower half; drawn directly in YUV 4:2:0 (BT.601 video range).
///
/// Why this picture: bars make colour errors obvious, the counter changing every frame makes motion (and
/// frozen video) obvious, and the counter and clock make dropped or late frames readable on the far end.
/// The huge counter is laid out on the grid of the console's smallest preview — at 80×24 a 16:9 picture is
/// 17×5 cells, 34×10 quadrant pixels, taken from the picture below the marker row — so that each of its
/// font pixels is one cell across and one pixel down there: crisp white-on-black digits instead of grey,
/// which a viewer reads and which repaint as bare glyphs (no colour changes on the wire). The small line
/// is grey so that, averaged into a preview pixel, it fades to black; at full size it reads as well as
/// white. There is no moving bar any more: it repainted a column of preview cells at every refresh, and the
/// counter shows motion. `render` is a pure function of the frame index, so tests can compare a decoded
/// frame with the exact original.
public struct TestPattern: Sendable {
    public let width: Int
    public let height: Int
    public let framesPerSecond: Double

    /// BT.601 video-range Y, U, V of the seven 75 % bars: white, yellow, cyan, green, magenta, red, blue.
    static let bars: [(UInt8, UInt8, UInt8)] = [
        (180, 128, 128), (162, 44, 142), (131, 156, 44), (112, 72, 58),
        (84, 184, 198), (65, 100, 212), (35, 212, 114),
    ]

    private let barRowY: [UInt8]
    private let barRowU: [UInt8]
    private let barRowV: [UInt8]
    /// Rows from here down are the black caption band.
    let bandTop: Int
    /// `--video grain`: the bars' luma with moving grain, one tile per frame in turn (empty: plain bars).
    private let grain: [[UInt8]]

    public init(width: Int, height: Int, framesPerSecond: Double, grain: Bool = false) {
        self.width = width
        self.height = height
        self.framesPerSecond = framesPerSecond
        let chromaWidth = (width + 1) / 2
        barRowY = (0..<width).map { TestPattern.bars[$0 * 7 / max(width, 1)].0 }
        barRowU = (0..<chromaWidth).map { TestPattern.bars[min(6, $0 * 2 * 7 / max(width, 1))].1 }
        barRowV = (0..<chromaWidth).map { TestPattern.bars[min(6, $0 * 2 * 7 / max(width, 1))].2 }
        let skipped = FrameMarker.bandHeight(pictureHeight: height)
        bandTop = (skipped + (height - skipped) * 2 / TestPattern.previewGrid.rows) & ~1
        self.grain = grain ? TestPattern.grainTiles(barRow: barRowY, width: width, rows: bandTop) : []
    }

    /// The grid the counter is laid out on: the 80×24 preview of a 16:9 picture, 17 cells across and 10
    /// pixels (5 rows of quadrant cells) down, below the marker row.
    static let previewGrid = (columns: 17, rows: 10)

    /// The small line's grey: readable at full size, near black once averaged into a preview pixel.
    static let smallTextLuma: UInt8 = 96

    /// The small text's scale (picture pixels per font pixel): about 1/240 of the height, so that the line
    /// ends left of the big clock (a fifth of the width at 720p) and still reads at full size.
    var textScale: Int { max(1, height / 240) }

    /// Where the huge counter goes: its top left corner and the size of one font pixel across and down,
    /// in picture pixels (fractional, so its edges fall on the preview grid). Four `BlockDigitFont` digits
    /// with their gaps are 15 font pixels across: one grid column each, from the second column; 5 down: one
    /// grid row each, the lower half of the picture under the marker row.
    struct CounterGeometry: Equatable {
        var x: Double
        var y: Double
        var pixelWidth: Double
        var pixelHeight: Double
        static let digits = 4
        static let fontColumns = digits * (BlockDigitFont.glyphWidth + 1) - 1
        /// `HH:MM:SS`: six digits and two one-column colons with their gaps.
        static let clockFontColumns = 6 * (BlockDigitFont.glyphWidth + 1) + 2 * 2 - 1

        /// Font pixels across `character` takes (a colon is one column), without the gap after it.
        static func fontWidth(of character: Character) -> Int { character == ":" ? 1 : BlockDigitFont.glyphWidth }

        /// The picture rectangle of font pixel (`column`, `row`) of the whole counter, gaps included.
        func rect(column: Int, row: Int) -> (x0: Int, x1: Int, y0: Int, y1: Int) {
            (Int(x + Double(column) * pixelWidth), Int(x + Double(column + 1) * pixelWidth),
             Int(y + Double(row) * pixelHeight), Int(y + Double(row + 1) * pixelHeight))
        }
    }

    var counterGeometry: CounterGeometry {
        let skipped = Double(FrameMarker.bandHeight(pictureHeight: height))
        let pixelHeight = (Double(height) - skipped) / Double(TestPattern.previewGrid.rows)
        let pixelWidth = Double(width) / Double(TestPattern.previewGrid.columns)
        return CounterGeometry(
            x: pixelWidth, y: skipped + pixelHeight * Double(TestPattern.previewGrid.rows - BlockDigitFont.glyphHeight),
            pixelWidth: pixelWidth, pixelHeight: pixelHeight)
    }

    /// The grid the big clock is laid out on: the 160×48 preview of a 16:9 picture, 134 quadrant pixels (67
    /// cells) across and 38 (19 cells) down, below the marker row.
    static let clockGrid = (columns: 134, rows: 38)

    /// One font pixel of the big clock on `clockGrid`: 1.5 cells (3 pixels) across and one cell (2 pixels)
    /// down, so its rows fall on cell rows. Why
    /// not one cell by one pixel, like the counter at 80×24: the console's preview picture is 128×72, coarser
    /// than the 160×48 grid, so a stroke one grid pixel thin blurs to grey there and digits misread.
    static let clockPixel = (gridColumns: 3.0, gridRows: 2.0)

    /// Where the big `HH:MM:SS` clock goes: right of the small line, from grid column 50 (cell 25) and grid
    /// row 6 — on a black notch cut into the bars' last 2.6 rows — down to row 16, above the counter (row
    /// 19). Why that high: at 80×24 row 16 is a fifth into the pixel row just above the counter, too little
    /// to tint it, so the counter's top cells stay clean; there the clock itself (the font needs five pixel
    /// rows, 80×24 has three free) is a smudge in the cell row above the counter, not readable.
    var clockGeometry: CounterGeometry {
        let skipped = Double(FrameMarker.bandHeight(pictureHeight: height))
        let gridRow = (Double(height) - skipped) / Double(TestPattern.clockGrid.rows)
        let gridColumn = Double(width) / Double(TestPattern.clockGrid.columns)
        return CounterGeometry(
            x: gridColumn * 50, y: skipped + gridRow * 6,
            pixelWidth: gridColumn * TestPattern.clockPixel.gridColumns, pixelHeight: gridRow * TestPattern.clockPixel.gridRows)
    }

    /// The picture for frame `index`, stamped with `captureNanoseconds`. Its top rows carry a `FrameMarker`:
    /// the frame number and `wallMicroseconds` (the capture instant on CLOCK_REALTIME), or — when that is
    /// nil, as in a file made ahead of time — the frame's time since frame 0.
    public func render(frameIndex index: Int, captureNanoseconds: UInt64 = 0, wallMicroseconds: UInt64? = nil) -> VideoFrame {
        var frame = VideoFrame(width: width, height: height, captureNanoseconds: captureNanoseconds, sequenceNumber: index)
        let chromaWidth = frame.chromaWidth
        let chromaHeight = frame.chromaHeight
        let lumaCount = frame.lumaCount
        let chromaCount = frame.chromaCount
        frame.planes.withUnsafeMutableBufferPointer { planes in
            guard let base = planes.baseAddress else { return }
            let luma = UnsafeMutableBufferPointer(start: base, count: lumaCount)
            let u = UnsafeMutableBufferPointer(start: base + lumaCount, count: chromaCount)
            let v = UnsafeMutableBufferPointer(start: base + lumaCount + chromaCount, count: chromaCount)
            if grain.isEmpty {
                barRowY.withUnsafeBufferPointer { row in
                    for y in 0..<bandTop { (luma.baseAddress! + y * width).update(from: row.baseAddress!, count: width) }
                }
            } else {
                grain[index % grain.count].withUnsafeBufferPointer { tile in
                    luma.baseAddress!.update(from: tile.baseAddress!, count: tile.count)
                }
            }
            barRowU.withUnsafeBufferPointer { rowU in
                barRowV.withUnsafeBufferPointer { rowV in
                    for y in 0..<min(chromaHeight, bandTop / 2) {
                        (u.baseAddress! + y * chromaWidth).update(from: rowU.baseAddress!, count: chromaWidth)
                        (v.baseAddress! + y * chromaWidth).update(from: rowV.baseAddress!, count: chromaWidth)
                    }
                }
            }
            let clockPlace = clockGeometry
            // One grid row of black above the clock too, so the bars' colour does not bleed into its top row.
            let notchTop = clockPlace.y - clockPlace.pixelHeight / TestPattern.clockPixel.gridRows
            let notch = (x: max(0, Int(clockPlace.x) - textScale) & ~1, y: max(0, Int(notchTop)) & ~1)
            for y in notch.y..<bandTop {
                for x in notch.x..<width { luma[y * width + x] = 16 }
            }
            for y in (notch.y / 2)..<min(chromaHeight, bandTop / 2) {
                for x in (notch.x / 2)..<chromaWidth {
                    u[y * chromaWidth + x] = 128
                    v[y * chromaWidth + x] = 128
                }
            }
            let margin = textScale
            let clock = TestPattern.clockText(frameIndex: index, framesPerSecond: framesPerSecond)
            TestPatternFont.draw(
                TestPattern.counterText(index) + "  " + clock, into: luma, width: width, height: height,
                x: margin, y: bandTop + margin, scale: textScale, value: TestPattern.smallTextLuma)
            let counter = counterGeometry
            TestPattern.drawHuge(
                String(TestPattern.counterText(index).suffix(CounterGeometry.digits)), at: counter, into: luma, width: width, height: height)
            TestPattern.drawHuge(String(clock.prefix(8)), at: clockPlace, into: luma, width: width, height: height)
            marker(frameIndex: index, wallMicroseconds: wallMicroseconds).draw(into: luma, width: width, height: height)
        }
        return frame
    }

    /// The marker of frame `index`: its capture instant if known, else its offset from frame 0.
    func marker(frameIndex index: Int, wallMicroseconds: UInt64?) -> FrameMarker {
        let number = UInt32(truncatingIfNeeded: index)
        if let wallMicroseconds { return FrameMarker(frameNumber: number, clock: .wallMicroseconds(wallMicroseconds)) }
        let offset = UInt64((Double(max(index, 0)) * 1e6 / max(framesPerSecond, 1)).rounded())
        return FrameMarker(frameNumber: number, clock: .streamMicroseconds(offset))
    }

    /// Draws `text` (digits and `:`) with `BlockDigitFont` at `place`, white; clipped to the plane. A colon is
    /// one font pixel wide (the middle column of its glyph), so `HH:MM:SS` stays narrow.
    static func drawHuge(
        _ text: String, at place: CounterGeometry, into luma: UnsafeMutableBufferPointer<UInt8>, width: Int, height: Int
    ) {
        var first = 0
        for character in text {
            let columns = CounterGeometry.fontWidth(of: character)
            let offset = character == ":" ? 1 : 0
            defer { first += columns + 1 }
            for row in 0..<BlockDigitFont.glyphHeight {
                for column in 0..<columns where BlockDigitFont.isSet(character, column: column + offset, row: row) {
                    let r = place.rect(column: first + column, row: row)
                    let x0 = max(0, r.x0), x1 = min(width, r.x1), y0 = max(0, r.y0), y1 = min(height, r.y1)
                    guard x0 < x1, y0 < y1 else { continue }
                    for y in y0..<y1 {
                        for x in x0..<x1 { luma[y * width + x] = 235 }
                    }
                }
            }
        }
    }

    /// The burned-in counter: six digits, wrapping at a million.
    static func counterText(_ index: Int) -> String {
        let digits = String(index % 1_000_000)
        return String(repeating: "0", count: 6 - digits.count) + digits
    }

    /// The burned-in stream clock, HH:MM:SS.mmm from the frame index.
    static func clockText(frameIndex: Int, framesPerSecond: Double) -> String {
        let milliseconds = Int((Double(frameIndex) * 1000 / max(framesPerSecond, 1)).rounded())
        func pad(_ value: Int, _ width: Int) -> String {
            let text = String(value)
            return String(repeating: "0", count: max(0, width - text.count)) + text
        }
        let seconds = milliseconds / 1000
        return "\(pad(seconds / 3600 % 100, 2)):\(pad(seconds / 60 % 60, 2)):\(pad(seconds % 60, 2)).\(pad(milliseconds % 1000, 3))"
    }
}

/// The test pattern as a live source: one frame per interval on the monotonic clock.
public final class TestPatternSource: VideoSource {
    public let requested: VideoSourceFormat
    public let granted: VideoSourceFormat
    public private(set) var skippedFrames = 0
    private let pattern: TestPattern
    private var pacer: RealTimePacer
    private var index = 0

    public init(width: Int, height: Int, framesPerSecond: Double, grain: Bool = false, pacing: Pacing = .realTime) throws {
        guard width >= 16, height >= 16, width % 2 == 0, height % 2 == 0, framesPerSecond > 0 else {
            throw MediaError.invalidConfiguration("test pattern size \(width)x\(height)@\(framesPerSecond) must be even, at least 16x16, with fps > 0")
        }
        pattern = TestPattern(width: width, height: height, framesPerSecond: framesPerSecond, grain: grain)
        requested = VideoSourceFormat(width: width, height: height, framesPerSecond: framesPerSecond, pixelFormat: grain ? "grainy test pattern" : "test pattern")
        granted = requested
        pacer = RealTimePacer(pacing: pacing, intervalNanoseconds: 1e9 / framesPerSecond)
    }

    public func read() throws -> VideoFrame {
        let tick = try pacer.next()
        skippedFrames += tick.skipped
        index += tick.skipped
        defer { index += 1 }
        return pattern.render(
            frameIndex: index, captureNanoseconds: tick.time, wallMicroseconds: WallClock.microseconds(ofMonotonic: tick.time))
    }
}
