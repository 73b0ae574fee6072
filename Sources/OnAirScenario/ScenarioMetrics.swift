/// The figures `--report` compares across scenarios and policies.
public struct ScenarioMetrics: Sendable, Equatable {
    /// One return to publishing after an interruption: which key brought it (or `reconnect`) and how long
    /// from that key to the publisher's PUBLISHING badge.
    public struct BackToPublishing: Sendable, Equatable {
        public var trigger: String
        public var duration: Duration

        public init(trigger: String, duration: Duration) {
            self.trigger = trigger
            self.duration = duration
        }
    }

    /// The longest time the subscriber went without a video frame (nil before any subscriber stats).
    public var longestVideoGap: Duration?
    public var backToPublishing: [BackToPublishing] = []
    /// The highest reconnect attempt the publisher's badge showed (`RECONNECTING n/N`).
    public var publisherReconnectAttempts = 0
    /// How many times the subscriber played again after its first play (its reconnect loop).
    public var subscriberReconnectAttempts = 0

    public init() {}
}
