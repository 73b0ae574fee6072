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
    /// Packets the publisher's output queue dropped because the network was slower than the encoder
    /// (its `droppedVideoPackets` + `droppedAudioPackets`).
    public var congestionDrops = 0
    /// How long the subscriber's picture froze (its `frozenMs`) during the scenario's
    /// `expect subscriber frozen|gap below … for W` windows: after the stream has converged (nil: no such window).
    public var frozenAfterConverging: Duration?
    /// The longest stretch without video during those windows (nil: no such window).
    public var longestGapAfterConverging: Duration?
    /// For each cap a press put on the link, how long until the publisher's sent rate stayed at or under
    /// ``CapConvergence/share`` of it.
    public var capConvergence: [CapConvergence] = []

    /// One `link-cap RATE` (or `handoff RATE`) press and the publisher's answer to it.
    public struct CapConvergence: Sendable, Equatable {
        /// "Under the cap" means at most this share of it: room for audio and bursts (`make bench` uses the same).
        public static let share = 0.9
        /// "Stayed" means for at least this long before the next press: a second or two under the cap at the
        /// end of a burst is not convergence.
        public static let stay: Duration = .seconds(5)

        public var capBitsPerSecond: Int
        /// From the press to the first of the sent-rate samples that all stayed under the cap until the next
        /// press, for at least ``stay``; nil when they did not.
        public var duration: Duration?

        public init(capBitsPerSecond: Int, duration: Duration?) {
            self.capBitsPerSecond = capBitsPerSecond
            self.duration = duration
        }
    }

    public init() {}
}
