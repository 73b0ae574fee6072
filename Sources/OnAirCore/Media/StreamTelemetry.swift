/// Live numbers the dashboards show next to the state: pulled from the engine or the player once a tick.
///
/// Plain values, so the console can draw them without depending on the media engine.
public struct StreamTelemetry: Sendable, Equatable {
    /// Bits per second over the last second.
    public var bitrate: Int
    /// One sample per second, oldest first, at most 60: the sparkline.
    public var bitrateHistory: [Int]
    /// Video frames per second over the last second.
    public var framesPerSecond: Double
    /// Video frames dropped since the start (congestion, paused render, …).
    public var droppedFrames: Int
    /// Packets waiting to be sent (publisher) or decoded (subscriber).
    public var queueDepth: Int
    /// 0 (link keeps up) to 1 (dropping): how close the output queue is to its bound.
    public var congestion: Double
    /// The newest preview picture, if the preview is on.
    public var preview: PreviewImage?
    /// RMS level of the newest decoded audio, in dB below full scale (subscriber); nil before any audio.
    public var audioLevelDBFS: Double?
    /// Publisher only: what the encoder produced over the last second, beside `bitrate` (what the socket
    /// took). They differ when packets wait in the queue, are dropped, or nothing is being sent.
    public var encoderBitrate: Int?
    public var encoderFramesPerSecond: Double?
    /// Subscriber: glass-to-glass p50/p99 in ms and the newest frame number, read from the pictures' frame
    /// markers (nil when the pictures carry none).
    public var glassToGlass: GlassToGlass?

    public struct GlassToGlass: Sendable, Equatable {
        public var p50Milliseconds: Double
        public var p99Milliseconds: Double
        public var frameNumber: Int

        public init(p50Milliseconds: Double, p99Milliseconds: Double, frameNumber: Int) {
            self.p50Milliseconds = p50Milliseconds
            self.p99Milliseconds = p99Milliseconds
            self.frameNumber = frameNumber
        }
    }
    /// Subscriber only: why no picture will come, when the stream says so (nil: a picture is expected).
    public var pictureAbsence: PictureAbsence?

    public enum PictureAbsence: Sendable, Equatable {
        /// `onMetaData` announces no video (an audio-only stream).
        case audioOnly
        /// Video arrives in a codec OnAir does not decode (Sorenson H.263, VP6, …; the event log names it).
        case videoNotDecoded

        /// Longest first, for the space the preview has.
        public var texts: [String] {
            switch self {
            case .audioOnly: ["audio only: the stream announces no video", "audio only"]
            case .videoNotDecoded: ["no picture: the video is not H.264 (see the events)", "video not H.264"]
            }
        }
    }

    /// Publisher only: the link impairment stage's state, nil when there is no stage.
    public var link: LinkImpairmentState?
    /// Publisher only: what adaptive bitrate asks of the encoder now, nil with `--abr off`.
    public var abrTarget: AdaptiveBitrateTarget?
    /// Publisher only: the lost devices in the dashboard's words (`CAMERA LOST — slate, retry in 2 s`),
    /// nil while both are there (docs/devices.md).
    public var deviceAlert: String? = nil
    /// Publisher only, with several URLs: a row per destination (`OutputRow`); empty with one URL.
    public var outputs: [OutputRow] = []

    public init(
        bitrate: Int = 0,
        bitrateHistory: [Int] = [],
        framesPerSecond: Double = 0,
        droppedFrames: Int = 0,
        queueDepth: Int = 0,
        congestion: Double = 0,
        preview: PreviewImage? = nil,
        audioLevelDBFS: Double? = nil,
        encoderBitrate: Int? = nil,
        encoderFramesPerSecond: Double? = nil,
        link: LinkImpairmentState? = nil,
        abrTarget: AdaptiveBitrateTarget? = nil
    ) {
        self.bitrate = bitrate
        self.bitrateHistory = bitrateHistory
        self.framesPerSecond = framesPerSecond
        self.droppedFrames = droppedFrames
        self.queueDepth = queueDepth
        self.congestion = congestion
        self.preview = preview
        self.audioLevelDBFS = audioLevelDBFS
        self.encoderBitrate = encoderBitrate
        self.encoderFramesPerSecond = encoderFramesPerSecond
        self.link = link
        self.abrTarget = abrTarget
    }

    public static let none = StreamTelemetry()
}
