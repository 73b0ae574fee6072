import OnAirMedia

/// `onair pattern --out FILE.y4m`: the test pattern written ahead of time, frame markers included.
///
/// The markers of such a file count time from frame 0 (no capture instant is known when it is made), so a
/// subscriber reading it back needs `--pattern-epoch`: when the sender started sending frame 0.
public enum PatternFrontEnd {
    /// At most an hour: a 720p30 hour is 150 GB already.
    static let longest = 3600.0

    /// Writes the file; usage errors exit 2, a file that cannot be written exits 1.
    public static func run(out: String, size: String, framesPerSecond: Double, seconds: Double) throws -> String {
        let dimensions: (width: Int, height: Int)
        do {
            dimensions = try MediaEngineConfiguration.parseSize(size)
        } catch {
            throw FrontEndExit(code: 2, message: "onair pattern: \(error)")
        }
        guard dimensions.width <= 7680, dimensions.height <= 4320 else {
            throw FrontEndExit(code: 2, message: "onair pattern: --size \(size) is larger than 7680x4320")
        }
        guard framesPerSecond.isFinite, framesPerSecond > 0, framesPerSecond <= 240 else {
            throw FrontEndExit(code: 2, message: "onair pattern: --fps \(framesPerSecond) is out of range; use a rate above 0 and at most 240")
        }
        guard seconds.isFinite, seconds > 0, seconds <= longest else {
            throw FrontEndExit(code: 2, message: "onair pattern: --seconds \(seconds) is out of range; use more than 0 and at most \(Int(longest))")
        }
        let pattern = TestPattern(width: dimensions.width, height: dimensions.height, framesPerSecond: framesPerSecond)
        let frames = max(1, Int((seconds * framesPerSecond).rounded()))
        do {
            let writer = try Y4MWriter(path: out, width: dimensions.width, height: dimensions.height, framesPerSecond: framesPerSecond)
            for index in 0..<frames { try writer.append(pattern.render(frameIndex: index)) }
            try writer.close()
        } catch MediaError.invalidConfiguration(let reason) {
            throw FrontEndExit(code: 2, message: "onair pattern: \(reason)")
        } catch {
            throw FrontEndExit(code: 1, message: "onair pattern: \(error)")
        }
        return "wrote \(out): \(frames) frames of \(dimensions.width)x\(dimensions.height) at \(framesPerSecond) fps"
    }
}
