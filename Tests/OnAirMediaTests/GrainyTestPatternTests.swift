import OnAirCore
import Testing
@testable import OnAirMedia

/// `--video grain`: the test pattern with moving grain on its bars, the synthetic picture that loads a link
/// the way a camera's does. It must fill the encoder's target where the plain pattern does not, stay a pure
/// function of the frame index, and keep its frame marker readable.
@Suite("grainy test pattern")
struct GrainyTestPatternTests {
    /// bit/s x264 produced for `seconds` of `pattern` at `bitrate` (the first second aside: the VBV fills).
    static func encodedRate(_ pattern: TestPattern, bitrate: Int, seconds: Int = 4) throws -> Double {
        let encoder = try VideoEncoder(EncodeDecodeRoundTripTests.settings(width: pattern.width, height: pattern.height, bitrate: bitrate))
        var bytes = 0
        for index in 0..<(seconds * 30) {
            let packets = try encoder.encode(pattern.render(frameIndex: index), milliseconds: Int64(index * 33), forceKeyframe: false)
            if index >= 30 { bytes += packets.reduce(0) { $0 + $1.payload.count } }
        }
        return Double(bytes * 8) / Double(seconds - 1)
    }

    @Test("at 1280x720 and 2500k the grain fills the target; the plain pattern codes in under half of it")
    func fillsTheTarget() throws {
        let grainy = try Self.encodedRate(TestPattern(width: 1280, height: 720, framesPerSecond: 30, grain: true), bitrate: 2_500_000)
        let plain = try Self.encodedRate(TestPattern(width: 1280, height: 720, framesPerSecond: 30), bitrate: 2_500_000)
        print("grainy test pattern 1280x720 at 2500k: \(Int(grainy / 1000)) kbit/s; plain: \(Int(plain / 1000)) kbit/s")
        #expect(grainy >= 2_500_000 * 0.85, "grain: \(grainy)")
        #expect(plain < 2_500_000 * 0.5, "plain: \(plain)")
    }

    @Test("rate control still brings it down: at 300k the grainy pattern stays within 20 % of the target")
    func followsALowTarget() throws {
        let rate = try Self.encodedRate(TestPattern(width: 1280, height: 720, framesPerSecond: 30, grain: true), bitrate: 300_000)
        #expect(abs(rate - 300_000) < 300_000 * 0.2, "at 300k: \(rate)")
    }

    @Test("a pure function of the index: the same frame twice, a different grain from one frame to the next, the marker intact")
    func pureAndMarked() {
        let pattern = TestPattern(width: 640, height: 360, framesPerSecond: 30, grain: true)
        let first = pattern.render(frameIndex: 41), again = pattern.render(frameIndex: 41), next = pattern.render(frameIndex: 42)
        #expect(first.planes == again.planes)
        let barRows = pattern.bandTop * pattern.width
        let changed = zip(first.planes.prefix(barRows), next.planes.prefix(barRows)).filter { $0 != $1 }.count
        #expect(changed > barRows / 2, "only \(changed) of \(barRows) bar pixels changed")
        let marker = first.planes.withUnsafeBufferPointer { planes in
            FrameMarker.read(luma: UnsafeBufferPointer(rebasing: planes.prefix(first.lumaCount)), stride: first.width, width: first.width, height: first.height)
        }
        #expect(marker?.frameNumber == 41)
    }
}
