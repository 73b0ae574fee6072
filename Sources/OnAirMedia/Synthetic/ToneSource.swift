import Glibc

/// A sine tone as a live audio source: the microphone stand-in when there is no sound card.
public final class ToneSource: AudioSource {
    public let format: AudioSourceFormat
    public let frequency: Double
    /// Peak amplitude as a fraction of full scale.
    public let amplitude: Double
    public let overruns = 0
    private let pacing: Pacing
    /// Silences the first ``markGapMicroseconds`` of every second of the wall clock: the audio's frame marker.
    public let marksSeconds: Bool
    /// The gap: long enough to find after AAC (whose frames smear edges by a few ms), short enough not to hear.
    public static let markGapMicroseconds: UInt64 = 10_000
    private var start: UInt64?
    /// Sample frames produced so far (internal: tests start a tone hours in).
    var framesDelivered: Int64 = 0

    public init(
        frequency: Double = 440, amplitude: Double = 0.25, sampleRate: Int = 48_000, channels: Int = 2, pacing: Pacing = .realTime,
        marksSeconds: Bool = false
    ) throws {
        self.marksSeconds = marksSeconds
        guard sampleRate > 0, (1...2).contains(channels), frequency > 0, frequency < Double(sampleRate) / 2 else {
            throw MediaError.invalidConfiguration("tone \(frequency) Hz at \(sampleRate) Hz × \(channels) ch: need 1–2 channels and a frequency below Nyquist")
        }
        self.frequency = frequency
        self.amplitude = min(max(amplitude, 0), 1)
        format = AudioSourceFormat(sampleRate: sampleRate, channels: channels)
        self.pacing = pacing
    }

    public func read(frames: Int) throws -> AudioChunk {
        let now = MonotonicClock.now()
        let start = self.start ?? now
        self.start = start
        let rate = Double(format.sampleRate)
        let firstSampleTime = start + UInt64(Double(framesDelivered) * 1e9 / rate)
        let channels = format.channels
        let peak = amplitude * 32767
        // One sine and cosine per chunk, at the phase of its absolute first sample (the fractional cycle, so
        // precision never degrades over hours and chunk boundaries never click); then each sample rotates
        // the phasor by one step: four multiplications instead of a libm sine per sample.
        let cyclesPerSample = frequency / rate
        let firstCycles = Double(framesDelivered) * cyclesPerSample
        let phase = 2 * Double.pi * (firstCycles - firstCycles.rounded(.down))
        let step = 2 * Double.pi * cyclesPerSample
        let (stepSine, stepCosine) = (sin(step), cos(step))
        var (sine, cosine) = (sin(phase), cos(phase))
        var samples = [Int16](unsafeUninitializedCapacity: frames * channels) { buffer, initialized in
            for frame in 0..<frames {
                let value = Int16((peak * sine).rounded())
                for channel in 0..<channels { buffer[frame * channels + channel] = value }
                (sine, cosine) = (sine * stepCosine + cosine * stepSine, cosine * stepCosine - sine * stepSine)
            }
            initialized = frames * channels
        }
        framesDelivered += Int64(frames)
        if marksSeconds {
            ToneSource.silenceMarks(
                in: &samples, channels: channels, sampleRate: rate, firstSampleWall: WallClock.microseconds(ofMonotonic: firstSampleTime))
        }
        if pacing == .realTime {
            try MonotonicClock.sleep(until: start + UInt64(Double(framesDelivered) * 1e9 / rate))
        }
        return AudioChunk(sampleRate: format.sampleRate, channels: format.channels, samples: samples, captureNanoseconds: firstSampleTime)
    }
}

extension ToneSource {
    /// Zeroes the samples whose wall-clock instant falls in the first ``markGapMicroseconds`` of a second.
    ///
    /// Sample `f` is at `firstSampleWall + UInt64(Double(f) * 1e6 / sampleRate)` µs and is silenced when that
    /// instant's place in its second is under the gap. Why not test every sample (issue 31): a division, a float
    /// conversion and a remainder per sample cost most of the tone's CPU; the instants only grow, so the gap's
    /// samples are found by binary search over the same formula (the same samples, bit for bit) and zeroed as
    /// runs — a 1024-sample chunk at 48 kHz meets at most one second's start.
    static func silenceMarks(in samples: inout [Int16], channels: Int, sampleRate: Double, firstSampleWall: UInt64) {
        let channels = max(channels, 1)
        let frames = samples.count / channels
        guard frames > 0, sampleRate > 0 else { return }
        let instant = { (frame: Int) -> UInt64 in firstSampleWall &+ UInt64(Double(frame) * 1e6 / sampleRate) }
        /// The first frame in `low..<frames` at or after `target` µs, or `frames` when none is.
        func firstFrame(atOrAfter target: UInt64, from low: Int) -> Int {
            var (low, high) = (low, frames)
            while low < high {
                let middle = low + (high - low) / 2
                if instant(middle) >= target { high = middle } else { low = middle + 1 }
            }
            return low
        }
        var frame = 0
        while frame < frames {
            let wall = instant(frame)
            let secondStart = wall - wall % 1_000_000
            if wall - secondStart < markGapMicroseconds {
                let (gapEnd, overflow) = secondStart.addingReportingOverflow(markGapMicroseconds)
                let end = overflow ? frames : firstFrame(atOrAfter: gapEnd, from: frame)
                samples.withUnsafeMutableBufferPointer { buffer in
                    for index in (frame * channels)..<(end * channels) { buffer[index] = 0 }
                }
                frame = end
            } else {
                let (nextSecond, overflow) = secondStart.addingReportingOverflow(1_000_000)
                frame = overflow ? frames : firstFrame(atOrAfter: nextSecond, from: frame)
            }
        }
    }
}
