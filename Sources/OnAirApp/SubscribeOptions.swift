/// What `onair subscribe` was asked to do.
public struct SubscribeOptions: Sendable {
    public var url: String
    public var reconnectDelay: Double
    public var stallTimeout: Double
    public var duration: Double?
    public var theme: String
    public var previewFramesPerSecond: Double
    /// PEM certificate authorities to trust for `rtmps://` instead of the system's roots (`--ca-file`).
    public var caFile: String?
    /// `--pattern-epoch`: Unix time (seconds) at which frame 0 of a pattern made by `onair pattern` was due.
    public var patternEpoch: Double?

    public init(
        url: String,
        reconnectDelay: Double = 2,
        stallTimeout: Double = 3,
        duration: Double? = nil,
        theme: String = "default",
        previewFramesPerSecond: Double = 8,
        caFile: String? = nil,
        patternEpoch: Double? = nil
    ) {
        self.patternEpoch = patternEpoch
        self.url = url
        self.reconnectDelay = reconnectDelay
        self.stallTimeout = stallTimeout
        self.duration = duration
        self.theme = theme
        self.previewFramesPerSecond = previewFramesPerSecond
        self.caFile = caFile
    }
}
