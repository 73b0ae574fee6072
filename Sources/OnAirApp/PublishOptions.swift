import OnAirCore

/// What `onair publish` was asked to do.
public struct PublishOptions: Sendable {
    public var url: String
    public var initialType: PublishType?
    public var policy: PublisherPolicyKind
    public var suspendTimeout: Double
    public var engine: EngineSettings
    public var duration: Double?
    public var theme: String
    /// PEM certificate authorities to trust for `rtmps://` instead of the system's roots (`--ca-file`).
    public var caFile: String?
    /// `--abr`, `--link-cap`, `--link-delay` (headless only for now).
    public var network = NetworkOptions()

    public init(
        url: String,
        initialType: PublishType? = nil,
        policy: PublisherPolicyKind = .tapRepublish,
        suspendTimeout: Double = 10,
        engine: EngineSettings = EngineSettings(),
        duration: Double? = nil,
        theme: String = "default",
        caFile: String? = nil
    ) {
        self.url = url
        self.initialType = initialType
        self.policy = policy
        self.suspendTimeout = suspendTimeout
        self.engine = engine
        self.duration = duration
        self.theme = theme
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
