/// How a `PublisherSession` starts: what to publish, which policy, and the timings.
public struct PublisherConfiguration: Sendable, Equatable {
    public var streamName: String
    /// The server URL with secrets hidden, for the dashboard.
    public var redactedURL: String
    public var policy: PublisherPolicyKind
    /// background-audio: how long a call may suspend the app before its connection drops (`--suspend-timeout`).
    public var suspendTimeout: Duration
    /// When to retry after the connection is lost. The default has no jitter so the core stays
    /// deterministic; an owner draws it once, as OBS does per output:
    /// `ReconnectPolicy(using: &generator)` with `SystemRandomNumberGenerator`.
    public var reconnect: ReconnectPolicy
    /// How long the socket may accept nothing before STALLED (`--send-timeout`); three times that, it is torn
    /// down and the reconnect policy takes over.
    public var sendTimeout: Duration

    public init(
        streamName: String,
        redactedURL: String,
        policy: PublisherPolicyKind = .tapRepublish,
        suspendTimeout: Duration = .seconds(10),
        reconnect: ReconnectPolicy = ReconnectPolicy(jitterUnit: 0),
        sendTimeout: Duration = .seconds(5)
    ) {
        self.streamName = streamName
        self.redactedURL = redactedURL
        self.policy = policy
        self.suspendTimeout = suspendTimeout
        self.reconnect = reconnect
        self.sendTimeout = sendTimeout
    }
}
