/// What an audio source delivers.
public struct AudioSourceFormat: Sendable, Equatable, CustomStringConvertible {
    public var sampleRate: Int
    public var channels: Int

    public init(sampleRate: Int, channels: Int) {
        self.sampleRate = sampleRate
        self.channels = channels
    }

    public var description: String { "\(sampleRate) Hz \(channels) ch s16" }
}

/// A PCM source read by one capture thread: blocking `read`, paced by the source (or by the device).
public protocol AudioSource: AnyObject {
    var format: AudioSourceFormat { get }
    /// Blocks until about `frames` sample frames are available and returns them.
    func read(frames: Int) throws -> AudioChunk
    /// Capture overruns recovered from (the device's buffer filled because the reader was late).
    var overruns: Int { get }
}
