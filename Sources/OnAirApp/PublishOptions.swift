import OnAirCore
import OnAirTerminal

/// What `onair publish` was asked to do.
public struct PublishOptions: Sendable {
    public var url: String
    public var initialType: PublishType?
    public var policy: PublisherPolicyKind
    public var suspendTimeout: Double
    public var engine: EngineSettings
    public var duration: Double?
    public var theme: String
    /// `--color`: whether the console may use colour.
    public var color: ColorChoice
    /// `--log FILE`: every event as JSON Lines (the headless schema) also goes to this file.
    public var logFile: String?
    /// PEM certificate authorities to trust for `rtmps://` instead of the system's roots (`--ca-file`).
    public var caFile: String?

    public init(
        url: String,
        initialType: PublishType? = nil,
        policy: PublisherPolicyKind = .tapRepublish,
        suspendTimeout: Double = 10,
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
        self.engine = engine
        self.duration = duration
        self.theme = theme
        self.color = color
        self.logFile = logFile
        self.caFile = caFile
    }

    /// The core session's configuration: the bare stream name (no key) and the redacted URL for display,
    /// and OBS-style reconnect jitter drawn once per run.
    func sessionConfiguration(url: StreamURL) -> PublisherConfiguration {
        PublisherConfiguration(
            streamName: url.bareStreamName,
            redactedURL: url.redacted,
            policy: policy,
            suspendTimeout: .milliseconds(Int64(suspendTimeout * 1000)),
            reconnect: ReconnectPolicy(jitterUnit: Double.random(in: 0..<1))
        )
    }
}
