/// A run of captured PCM: signed 16-bit, interleaved, at the source's rate and channel count.
public struct AudioChunk: Sendable, Equatable {
    public var sampleRate: Int
    public var channels: Int
    /// Interleaved samples: `frameCount × channels` values.
    public var samples: [Int16]
    /// Monotonic capture time of the first sample, in nanoseconds.
    public var captureNanoseconds: UInt64

    public var frameCount: Int { samples.count / max(channels, 1) }

    public init(sampleRate: Int, channels: Int, samples: [Int16], captureNanoseconds: UInt64) {
        self.sampleRate = sampleRate
        self.channels = channels
        self.samples = samples
        self.captureNanoseconds = captureNanoseconds
    }
}
