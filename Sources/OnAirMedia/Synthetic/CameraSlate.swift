/// The picture video carries while the camera is lost (`--on-camera-loss slate`): the test pattern's clock,
/// counter and frame marker on a grey card that says `CAMERA UNAVAILABLE` where the colour bars were.
///
/// Why the pattern's clock and marker: a subscriber keeps reading glass-to-glass latency and "video captured
/// after the last press" from the slate exactly as from a picture, so a camera loss is measured, not blind;
/// and the bars' absence tells a viewer at a glance that this is not the camera.
public struct CameraSlate: Sendable {
    public static let message = "CAMERA UNAVAILABLE"
    /// The card's grey (BT.601 video range): the text's white reads on it, the clock's black notch stands out.
    static let cardLuma: UInt8 = 60
    let pattern: TestPattern

    public init(width: Int, height: Int, framesPerSecond: Double) {
        pattern = TestPattern(width: width, height: height, framesPerSecond: framesPerSecond)
    }

    /// Whether a decoded picture (8-bit luma, `stride` bytes a row) is the slate rather than the pattern or
    /// a camera: the middle of the first bar, below the message, is the card's grey. The subscriber's
    /// `slate` field, so a scenario can tell the camera's picture is back, not just a live one.
    public static func isSlate(luma: UnsafeBufferPointer<UInt8>, stride: Int, width: Int, height: Int) -> Bool {
        guard width >= 16, height >= 16, stride >= width else { return false }
        let pattern = TestPattern(width: width, height: height, framesPerSecond: 30)
        let clock = pattern.clockGeometry
        let top = max(0, Int(clock.y - clock.pixelHeight / TestPattern.clockPixel.gridRows)) + 2
        let bottom = pattern.bandTop - 2
        let left = width / 28, right = max(left + 1, width / 14)
        guard top < bottom, luma.count >= (bottom - 1) * stride + right else { return false }
        var sum = 0
        for y in top..<bottom {
            for x in left..<right { sum += Int(luma[y * stride + x]) }
        }
        let mean = sum / ((bottom - top) * (right - left))
        return abs(mean - Int(cardLuma)) <= 15
    }

    /// The slate for frame `index`, stamped like the pattern's frame would be.
    public func render(frameIndex index: Int, captureNanoseconds: UInt64, wallMicroseconds: UInt64?) -> VideoFrame {
        var frame = pattern.render(frameIndex: index, captureNanoseconds: captureNanoseconds, wallMicroseconds: wallMicroseconds)
        let width = frame.width, height = frame.height
        let chromaWidth = frame.chromaWidth, chromaCount = frame.chromaCount
        let markerBottom = FrameMarker.bandHeight(pictureHeight: height)
        let clock = pattern.clockGeometry
        let notchTop = max(0, Int(clock.y - clock.pixelHeight / TestPattern.clockPixel.gridRows)) & ~1
        let notchLeft = max(0, Int(clock.x) - pattern.textScale) & ~1
        let bandTop = pattern.bandTop
        frame.planes.withUnsafeMutableBufferPointer { planes in
            let luma = UnsafeMutableBufferPointer(rebasing: planes[0..<(width * height)])
            for y in markerBottom..<bandTop {
                let right = y < notchTop ? width : notchLeft
                for x in 0..<right { luma[y * width + x] = CameraSlate.cardLuma }
            }
            // Neutral chroma over the whole bar area: grey, not tinted by the bars.
            let chromaStart = width * height
            for plane in 0..<2 {
                let base = chromaStart + plane * chromaCount
                for y in (markerBottom / 2)..<(bandTop / 2) {
                    for x in 0..<chromaWidth { planes[base + y * chromaWidth + x] = 128 }
                }
            }
            let available = max(notchLeft, width / 3) - 2 * pattern.textScale
            let scale = max(1, available / (CameraSlate.message.count * (TestPatternFont.glyphWidth + 1)))
            let textTop = markerBottom + max(0, (min(notchTop, bandTop) - markerBottom - TestPatternFont.glyphHeight * scale) / 2)
            SlateFont.draw(
                CameraSlate.message, into: luma, width: width, height: height, x: pattern.textScale, y: textTop, scale: scale, value: 235)
        }
        return frame
    }
}
