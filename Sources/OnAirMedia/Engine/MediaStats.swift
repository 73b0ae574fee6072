/// A snapshot of the engine for the dashboard, pulled with `MediaEngine.stats` (a value: no locks held).
public struct MediaStats: Sendable, Equatable {
    /// Why frames did not become packets, by cause.
    public struct Drops: Sendable, Equatable {
        /// Ticks a paced source skipped because its reader was late (the encoder could not keep up).
        public var sourceLate = 0
        /// Captured frames overwritten in the capture → encode handoff (the encoder was busy).
        public var encoderBusy = 0
        /// Encoded video packets dropped by the output queue (network slower than the encoder).
        public var congestionVideoPackets = 0
        /// Encoded audio packets dropped by the output queue (only when nothing else was left to drop).
        public var congestionAudioPackets = 0
        /// Audio capture overruns the device reported and the engine recovered from.
        public var audioOverruns = 0
        public init() {}

        public var total: Int { sourceLate + encoderBusy + congestionVideoPackets + congestionAudioPackets }
    }

    public var isRunning = false
    public var videoPaused = false
    public var audioPaused = false
    /// "test pattern", a file path or a device, as configured.
    public var videoSource: String?
    public var audioSource: String?
    /// What was asked of the video source and what it granted (a camera may differ).
    public var requestedVideo: VideoSourceFormat?
    public var grantedVideo: VideoSourceFormat?
    public var audioFormat: AudioSourceFormat?

    /// Video frames out of the encoder in the last second.
    public var encodedFramesPerSecond = 0.0
    /// Encoded bits per second over the last 1 s and 10 s (fewer at start-up: over the time elapsed).
    public var videoBitrate1s = 0
    public var videoBitrate10s = 0
    public var audioBitrate1s = 0
    public var audioBitrate10s = 0
    /// Mean and worst encode (scale + x264) time per video frame over the last second, in ms.
    public var encodeMillisecondsPerFrame = 0.0
    public var encodeMillisecondsPerFrameMax = 0.0

    public var framesCaptured = 0
    public var framesEncoded = 0
    public var keyframesEncoded = 0
    public var framesSkippedWhilePaused = 0
    /// Camera pictures repeated because the device delivered none in time (the encode thread's gap filler).
    public var framesFilled = 0
    public var audioPacketsEncoded = 0
    public var drops = Drops()

    /// Frames waiting between capture and encode.
    public var captureQueueDepth = 0
    /// The output queue: depth, bounds, high-water mark, latencies.
    public var output: PacketQueue.Snapshot?
    /// The last error that stopped a track, one line, if any.
    public var lastError: String?

    public init() {}

    /// Total encoded bits per second over the last second.
    public var bitrate1s: Int { videoBitrate1s + audioBitrate1s }
    /// Video capture → leaving the output queue, median and 99th percentile, ms.
    public var latencyP50Milliseconds: Double? { output?.videoLatencyP50 }
    public var latencyP99Milliseconds: Double? { output?.videoLatencyP99 }
}
