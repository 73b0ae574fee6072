import OnAirCore

/// Measures a video track's frame rate from its frames' timestamps, for streams without `onMetaData`
/// (`ffmpeg -flvflags no_metadata`, some hardware encoders), so the `videoTrack` event never says 0.
public struct FrameRateProbe: Sendable {
    /// How much of the stream the measurement spans before it is announced.
    public static let window: Int64 = 1000

    public private(set) var track: VideoTrackDescription
    private var first: Int64?
    private var last: Int64 = 0
    private var frames = 0

    public init(track: VideoTrackDescription) { self.track = track }

    /// Counts one frame; returns the track with its measured rate once the frames span ``window`` ms.
    public mutating func add(_ timestamp: Int64) -> VideoTrackDescription? {
        let start = first ?? timestamp
        first = start
        last = max(last, timestamp)
        frames += 1
        return last - start >= Self.window ? measured() : nil
    }

    /// The track with whatever rate the frames so far give (0 with fewer than two), at the end of a stream.
    public func finish() -> VideoTrackDescription { measured() }

    private func measured() -> VideoTrackDescription {
        var track = track
        if let first, last > first, frames > 1 { track.framesPerSecond = Double(frames - 1) * 1000 / Double(last - first) }
        return track
    }
}
