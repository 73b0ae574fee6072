/// How a `PublisherSession` starts: what to publish, which policy, and the timings.
public struct PublisherConfiguration: Sendable, Equatable {
    public var streamName: String
    /// The server URL with secrets hidden, for the dashboard.
    public var redactedURL: String
    public var policy: PublisherPolicyKind
    /// background-audio: how long a call may suspend the app before its connection drops (`--suspend-timeout`).
    public var suspendTimeout: Duration
    /// When to retry after the connection is lost (jitter already drawn by the owner).
    public var reconnect: ReconnectPolicy

    public init(
        streamName: String,
        redactedURL: String,
        policy: PublisherPolicyKind = .tapRepublish,
        suspendTimeout: Duration = .seconds(10),
        reconnect: ReconnectPolicy = ReconnectPolicy(jitterUnit: 0)
    ) {
        self.streamName = streamName
        self.redactedURL = redactedURL
        self.policy = policy
        self.suspendTimeout = suspendTimeout
        self.reconnect = reconnect
    }
}
