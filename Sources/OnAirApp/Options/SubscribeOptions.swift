import OnAirTerminal

/// What `onair subscribe` was asked to do.
public struct SubscribeOptions: Sendable {
    public var url: String
    public var reconnectDelay: Double
    public var stallTimeout: Double
    public var duration: Double?
    public var theme: String
    /// `--color`: whether the console may use colour.
    public var color: ColorChoice
    /// `--log FILE`: every event as JSON Lines (the headless schema) also goes to this file.
    public var logFile: String?
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
        color: ColorChoice = .auto,
        logFile: String? = nil,
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
        self.color = color
        self.logFile = logFile
        self.previewFramesPerSecond = previewFramesPerSecond
        self.caFile = caFile
    }
}
