import Glibc

/// A sine tone as a live audio source: the microphone stand-in when there is no sound card.
public final class ToneSource: AudioSource {
    public let format: AudioSourceFormat
    public let frequency: Double
    /// Peak amplitude as a fraction of full scale.
    public let amplitude: Double
    public let overruns = 0
    private let pacing: Pacing
    private var start: UInt64?
    private var framesDelivered: Int64 = 0

    public init(
        frequency: Double = 440, amplitude: Double = 0.25, sampleRate: Int = 48_000, channels: Int = 2, pacing: Pacing = .realTime
    ) throws {
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
        var samples = [Int16](repeating: 0, count: frames * format.channels)
        let cyclesPerSample = frequency / rate
        let peak = amplitude * 32767
        for frame in 0..<frames {
            // The phase comes from the absolute sample index (its fractional cycle, so precision never
            // degrades over hours), so chunk boundaries never click.
            let cycles = Double(framesDelivered + Int64(frame)) * cyclesPerSample
            let value = Int16((peak * sin(2 * Double.pi * (cycles - cycles.rounded(.down)))).rounded())
            for channel in 0..<format.channels { samples[frame * format.channels + channel] = value }
        }
        framesDelivered += Int64(frames)
        if pacing == .realTime {
            try MonotonicClock.sleep(until: start + UInt64(Double(framesDelivered) * 1e9 / rate))
        }
        return AudioChunk(sampleRate: format.sampleRate, channels: format.channels, samples: samples, captureNanoseconds: firstSampleTime)
    }
}
