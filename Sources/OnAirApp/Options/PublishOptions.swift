import OnAirCore
import OnAirTerminal

/// What `onair publish` was asked to do.
public struct PublishOptions: Sendable {
    public var url: String
    /// Outputs 2…N: `onair publish URL URL …` sends the one encode to each of these too, each on its own
    /// connection (docs/multi-destination.md). Empty with one URL.
    public var furtherURLs: [String] = []
    public var initialType: PublishType?
    public var policy: PublisherPolicyKind
    public var suspendTimeout: Double
    /// Seconds the socket may accept nothing before STALLED; three times that, the connection is torn down and
    /// the reconnect policy takes over (`--send-timeout`).
    public var sendTimeout: Double
    public var engine: EngineSettings
    public var duration: Double?
    public var theme: String
    /// `--color`: whether the console may use colour.
    public var color: ColorChoice
    /// `--log FILE`: every event as JSON Lines (the headless schema) also goes to this file.
    public var logFile: String?
    /// PEM certificate authorities to trust for `rtmps://` instead of the system's roots (`--ca-file`).
    public var caFile: String?
    /// `--abr`, `--link-cap`, `--link-delay`: the link stage and adaptive bitrate.
    public var network = NetworkOptions()

    public init(
        url: String,
        initialType: PublishType? = nil,
        policy: PublisherPolicyKind = .tapRepublish,
        suspendTimeout: Double = 10,
        sendTimeout: Double = 5,
        engine: EngineSettings = EngineSettings(),
        duration: Double? = nil,
        theme: String = "default",
        color: ColorChoice = .auto,
        logFile: String? = nil,
        caFile: String? = nil
    ) {
        self.url = url
        self.initialType = initialType
        self.policy = policy
        self.suspendTimeout = suspendTimeout
        self.sendTimeout = sendTimeout
        self.engine = engine
        self.duration = duration
        self.theme = theme
        self.color = color
        self.logFile = logFile
        self.caFile = caFile
    }

    /// The core session's configuration: the bare stream name (no key) and the redacted URL for display,
    /// and OBS-style reconnect jitter drawn once per run. A bad `--send-timeout` is a usage error.
    func sessionConfiguration(url: StreamURL, command: String) throws -> PublisherConfiguration {
        PublisherConfiguration(
            streamName: url.bareStreamName,
            redactedURL: url.redacted,
            policy: policy,
            suspendTimeout: .milliseconds(Int64(suspendTimeout * 1000)),
            reconnect: ReconnectPolicy(jitterUnit: Double.random(in: 0..<1)),
            sendTimeout: try FrontEndSetup.seconds(sendTimeout, option: "--send-timeout", command: command)
        )
    }
}
