import Glibc
import Testing
@testable import OnAirMedia

@Suite("synthetic sources: test pattern and tone")
struct SyntheticSourceTests {
    @Test("the test pattern is 75 % bars in BT.601 video range, with a black caption band")
    func bars() {
        let pattern = TestPattern(width: 640, height: 360, framesPerSecond: 30)
        let frame = pattern.render(frameIndex: 0)
        #expect(frame.planes.count == 640 * 360 * 3 / 2)
        let row = 40 * 640
        // Centre of each bar, under the marker row.
        let centres = (0..<7).map { ($0 * 2 + 1) * 640 / 14 }
        #expect(centres.map { frame.planes[row + $0] } == TestPattern.bars.map(\.0))
        let u = frame.lumaCount + 20 * frame.chromaWidth
        #expect(centres.map { frame.planes[u + $0 / 2] } == TestPattern.bars.map(\.1))
        #expect(frame.planes[357 * 640 + 637] == 16, "caption band is black")
    }

    @Test("the burned-in counter changes from frame to frame; the bars stay still")
    func motionAndCounter() {
        let pattern = TestPattern(width: 320, height: 180, framesPerSecond: 30)
        let first = pattern.render(frameIndex: 1), second = pattern.render(frameIndex: 2)
        let marker = FrameMarker.bandHeight(pictureHeight: 180) * 320
        #expect(first.planes[marker..<(pattern.bandTop * 320)] == second.planes[marker..<(pattern.bandTop * 320)])
        let band = pattern.bandTop * 320..<(180 * 320)
        #expect(first.planes[band] != second.planes[band], "counter/clock digits differ")
        #expect(pattern.render(frameIndex: 2) == second, "rendering is a pure function of the index")
    }

    @Test("the huge counter shows the frame number's last four digits, white, in the band under the bars")
    func hugeCounter() {
        let pattern = TestPattern(width: 640, height: 360, framesPerSecond: 30)
        let frame = pattern.render(frameIndex: 12_345)
        let place = pattern.counterGeometry
        #expect(place.y > Double(pattern.bandTop))
        // The middle of each digit's middle row: set in 2, 3, 4, 5 ("2345" all draw their middle bar).
        func centre(_ column: Int, _ row: Int) -> Int {
            let r = place.rect(column: column, row: row)
            return (r.y0 + r.y1) / 2 * 640 + (r.x0 + r.x1) / 2
        }
        for position in 0..<4 {
            #expect(frame.planes[centre(position * 4 + 1, 2)] == 235, "digit \(position)")
        }
        // "0" has a hole in the middle.
        #expect(pattern.render(frameIndex: 10_000).planes[centre(1, 2)] == 16)
    }

    @Test("counter and clock text")
    func captionText() {
        #expect(TestPattern.counterText(42) == "000042")
        #expect(TestPattern.clockText(frameIndex: 3_661 * 30 + 15, framesPerSecond: 30) == "01:01:01.500")
    }

    @Test("a real-time test pattern stamps frames one interval apart on the monotonic clock")
    func pacing() throws {
        let source = try TestPatternSource(width: 64, height: 36, framesPerSecond: 50)
        let frames = try (0..<5).map { _ in try source.read() }
        let gaps = zip(frames, frames.dropFirst()).map { Int64($1.captureNanoseconds) - Int64($0.captureNanoseconds) }
        // Nominal stamps: exactly 20 ms apart unless this loaded machine made the reader skip ticks.
        #expect(gaps.allSatisfy { $0 % 20_000_000 == 0 && $0 > 0 }, "gaps \(gaps)")
        #expect(frames.map(\.sequenceNumber) == frames.map(\.sequenceNumber).sorted())
    }

    @Test("the tone is a sine at the asked level: RMS = peak / √2, zero crossings at the frequency")
    func tone() throws {
        let source = try ToneSource(frequency: 1_000, amplitude: 0.5, sampleRate: 48_000, channels: 2, pacing: .unpaced)
        let chunk = try source.read(frames: 4_800)
        #expect(chunk.frameCount == 4_800)
        let left = stride(from: 0, to: chunk.samples.count, by: 2).map { Double(chunk.samples[$0]) / 32_768 }
        let rms = (left.map { $0 * $0 }.reduce(0, +) / Double(left.count)).squareRoot()
        #expect(abs(rms - 0.5 / 2.0.squareRoot()) < 0.005)
        let crossings = zip(left, left.dropFirst()).filter { $0 < 0 && $1 >= 0 }.count
        #expect((99...101).contains(crossings), "100 ms of 1 kHz")
        #expect(stride(from: 0, to: chunk.samples.count, by: 2).allSatisfy { chunk.samples[$0] == chunk.samples[$0 + 1] })
    }

    @Test("the tone's phasor stays on the exact sine: within one step of sin() per sample, across chunks and hours in")
    func tonePhasor() throws {
        let source = try ToneSource(frequency: 440, amplitude: 0.25, sampleRate: 48_000, channels: 1, pacing: .unpaced)
        let peak = 0.25 * 32767
        func exact(_ index: Int64) -> Int {
            let cycles = Double(index) * 440 / 48_000
            return Int((peak * Glibc.sin(2 * Double.pi * (cycles - cycles.rounded(.down)))).rounded())
        }
        var index: Int64 = 0
        for _ in 0..<3 {
            let chunk = try source.read(frames: 4_800)
            for (offset, sample) in chunk.samples.enumerated() {
                #expect(abs(Int(sample) - exact(index + Int64(offset))) <= 1, "sample \(index + Int64(offset))")
            }
            index += 4_800
        }
        // Ten hours in: the phase comes from the absolute index, so it is as exact as at the start.
        let late = try ToneSource(frequency: 440, amplitude: 0.25, sampleRate: 48_000, channels: 1, pacing: .unpaced)
        let skip = Int64(10 * 3_600 * 48_000)
        late.framesDelivered = skip
        let chunk = try late.read(frames: 1_024)
        #expect(chunk.samples.enumerated().allSatisfy { abs(Int($1) - exact(skip + Int64($0))) <= 1 })
    }

    @Test("invalid synthetic settings are refused with the valid range")
    func invalid() {
        #expect(throws: MediaError.self) { try TestPatternSource(width: 15, height: 9, framesPerSecond: 30) }
        #expect(throws: MediaError.self) { try ToneSource(frequency: 30_000, sampleRate: 48_000) }
    }
}
