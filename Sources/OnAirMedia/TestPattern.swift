/// The synthetic picture: 75 % colour bars, a sweeping white bar, and a burned-in frame counter and clock,
/// drawn directly in YUV 4:2:0 (BT.601 video range).
///
/// Why this picture: bars make colour errors obvious, the moving bar makes motion (and frozen video)
/// obvious, and the counter and clock make dropped or late frames readable on the far end. `render` is a
/// pure function of the frame index, so tests can compare a decoded frame with the exact original.
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

    public init(width: Int, height: Int, framesPerSecond: Double) {
        self.width = width
        self.height = height
        self.framesPerSecond = framesPerSecond
        let chromaWidth = (width + 1) / 2
        barRowY = (0..<width).map { TestPattern.bars[$0 * 7 / max(width, 1)].0 }
        barRowU = (0..<chromaWidth).map { TestPattern.bars[min(6, $0 * 2 * 7 / max(width, 1))].1 }
        barRowV = (0..<chromaWidth).map { TestPattern.bars[min(6, $0 * 2 * 7 / max(width, 1))].2 }
        bandTop = (height * 3 / 5) & ~1
    }

    /// The small text's scale (picture pixels per font pixel): about 1/120 of the height.
    var textScale: Int { max(1, height / 120) }

    /// The large clock's scale: as large as the caption band holds under the small line and the width holds
    /// eight characters (25 at 720p: a digit is 125×175 pixels, readable in a terminal preview 60 cells wide).
    /// Why only the clock: it changes once a second, so it costs the terminal nothing between changes, while
    /// large digits that change every frame (the counter, the milliseconds) would repaint a block of preview
    /// cells at every refresh — 8 kB/s at 80×24.
    var largeTextScale: Int {
        let glyph = TestPatternFont.glyphHeight + 2
        let byHeight = (height - bandTop - glyph * textScale - 2 * textScale) / glyph
        let byWidth = width / ((TestPatternFont.glyphWidth + 1) * 8 + 2)
        return max(1, min(byHeight, byWidth))
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
        let sweepWidth = max(2, width / 40) & ~1
        let travel = max(1, width - sweepWidth)
        let period = max(1, Int(framesPerSecond * 2))
        let sweepX = ((index % period) * travel / period) & ~1
        frame.planes.withUnsafeMutableBufferPointer { planes in
            guard let base = planes.baseAddress else { return }
            let luma = UnsafeMutableBufferPointer(start: base, count: lumaCount)
            let u = UnsafeMutableBufferPointer(start: base + lumaCount, count: chromaCount)
            let v = UnsafeMutableBufferPointer(start: base + lumaCount + chromaCount, count: chromaCount)
            barRowY.withUnsafeBufferPointer { row in
                for y in 0..<bandTop { (luma.baseAddress! + y * width).update(from: row.baseAddress!, count: width) }
            }
            barRowU.withUnsafeBufferPointer { rowU in
                barRowV.withUnsafeBufferPointer { rowV in
                    for y in 0..<min(chromaHeight, bandTop / 2) {
                        (u.baseAddress! + y * chromaWidth).update(from: rowU.baseAddress!, count: chromaWidth)
                        (v.baseAddress! + y * chromaWidth).update(from: rowV.baseAddress!, count: chromaWidth)
                    }
                }
            }
            // The sweeping bar: white, across the bars only, so it never hides the caption.
            for y in 0..<bandTop {
                for x in sweepX..<min(width, sweepX + sweepWidth) { luma[y * width + x] = 235 }
            }
            for y in 0..<min(chromaHeight, bandTop / 2) {
                for x in (sweepX / 2)..<min(chromaWidth, (sweepX + sweepWidth) / 2) {
                    u[y * chromaWidth + x] = 128
                    v[y * chromaWidth + x] = 128
                }
            }
            let scale = textScale, large = largeTextScale
            let margin = scale
            let clock = TestPattern.clockText(frameIndex: index, framesPerSecond: framesPerSecond)
            TestPatternFont.draw(
                String(clock.prefix(8)), into: luma, width: width, height: height,
                x: margin, y: bandTop + margin, scale: large, value: 235)
            TestPatternFont.draw(
                TestPattern.counterText(index) + "  " + clock, into: luma, width: width, height: height,
                x: margin, y: bandTop + margin + (TestPatternFont.glyphHeight + 2) * large, scale: scale, value: 235)
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

    public init(width: Int, height: Int, framesPerSecond: Double, pacing: Pacing = .realTime) throws {
        guard width >= 16, height >= 16, width % 2 == 0, height % 2 == 0, framesPerSecond > 0 else {
            throw MediaError.invalidConfiguration("test pattern size \(width)x\(height)@\(framesPerSecond) must be even, at least 16x16, with fps > 0")
        }
        pattern = TestPattern(width: width, height: height, framesPerSecond: framesPerSecond)
        requested = VideoSourceFormat(width: width, height: height, framesPerSecond: framesPerSecond, pixelFormat: "test pattern")
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
