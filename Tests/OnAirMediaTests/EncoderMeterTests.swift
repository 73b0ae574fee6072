import Testing
@testable import OnAirMedia

/// The encoder's own rates (`encoderFps`, `encoderBitrate`): what the encoder put out over a window, never an
/// extrapolation from one packet.
@Suite("encoder meter: rates over what came after the window opened")
struct EncoderMeterTests {
    private static let ms: UInt64 = 1_000_000
    private static let origin: UInt64 = 5_000 * ms

    /// Records `count` video frames of `bytes`, one every `interval`, from `origin`; returns the last time.
    private func record(_ meter: inout EncoderMeter, frames count: Int, bytes: Int, every interval: UInt64, from first: UInt64) -> UInt64 {
        var time = first
        for index in 0..<count {
            time = first + UInt64(index) * interval
            meter.record(.video, bytes: bytes, encodeNanoseconds: 2 * Self.ms, at: time)
        }
        return time
    }

    @Test("one frame just after the start is no rate yet (was 63 fps and 5 Mbit/s from a 10 kB keyframe)")
    func firstFrameIsNoRate() {
        var meter = EncoderMeter()
        meter.record(.video, bytes: 10_000, encodeNanoseconds: 7 * Self.ms, at: Self.origin)
        var stats = MediaStats()
        meter.fill(&stats, now: Self.origin + 16 * Self.ms)
        #expect(stats.encodedFramesPerSecond == 0)
        #expect(stats.videoBitrate1s == 0)
        #expect(stats.videoBitrate10s == 0)
        // Encode time is per frame, not a rate: the one frame's is shown.
        #expect(stats.encodeMillisecondsPerFrame == 7)
    }

    @Test("at start-up the rate is the frames after the first over the time since it", arguments: [2, 5, 16, 30])
    func startUpRate(frames: Int) {
        var meter = EncoderMeter()
        let interval = 33_333_333 as UInt64
        let last = record(&meter, frames: frames, bytes: 1_000, every: interval, from: Self.origin)
        var stats = MediaStats()
        meter.fill(&stats, now: last)
        #expect(abs(stats.encodedFramesPerSecond - 30) < 0.01, "\(stats.encodedFramesPerSecond) fps after \(frames) frames")
        #expect(abs(stats.videoBitrate1s - 240_000) <= 1, "\(stats.videoBitrate1s) b/s after \(frames) frames")
    }

    @Test("steady state: 30 frames a second of 10 kB read 30 fps and 2.4 Mbit/s over 1 s and 10 s")
    func steadyState() {
        var meter = EncoderMeter()
        let last = record(&meter, frames: 600, bytes: 10_000, every: 33_333_333, from: Self.origin)
        var stats = MediaStats()
        meter.fill(&stats, now: last + 10 * Self.ms)
        #expect(stats.encodedFramesPerSecond == 30)
        #expect(stats.videoBitrate1s == 2_400_000)
        #expect(abs(stats.videoBitrate10s - 2_400_000) <= 8_000)
        #expect(stats.encodeMillisecondsPerFrame == 2)
    }

    @Test("a stall reads 0 within the window, not the last rate")
    func stallFalls() {
        var meter = EncoderMeter()
        let last = record(&meter, frames: 90, bytes: 10_000, every: 33_333_333, from: Self.origin)
        meter.record(.audio, bytes: 400, at: last)
        var stats = MediaStats()
        meter.fill(&stats, now: last + 1_500 * Self.ms)
        #expect(stats.encodedFramesPerSecond == 0)
        #expect(stats.videoBitrate1s == 0)
        #expect(stats.audioBitrate1s == 0)
        #expect(stats.videoBitrate10s > 0)
    }
}
