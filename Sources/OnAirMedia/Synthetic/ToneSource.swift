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
    static func silenceMarks(in samples: inout [Int16], channels: Int, sampleRate: Double, firstSampleWall: UInt64) {
        let frames = samples.count / max(channels, 1)
        for frame in 0..<frames {
            let wall = firstSampleWall + UInt64(Double(frame) * 1e6 / sampleRate)
            guard wall % 1_000_000 < markGapMicroseconds else { continue }
            for channel in 0..<channels { samples[frame * channels + channel] = 0 }
        }
    }
}
