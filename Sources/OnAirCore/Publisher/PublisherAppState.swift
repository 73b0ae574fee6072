/// Everything the publisher dashboard shows, kept by the publisher's state machines
/// (lifecycle simulator + policy) and stamped by their owner. Plain data: no behaviour beyond derivations.
///
/// `status`, `policy`, `tapArmed`, `liveSince`, `sendStall` and `refusals` are read off the session's
/// connection phase and policy after every event (`PublisherSession.refreshDerivedState()`), the one
/// place each is kept; the session never sets them otherwise.
public struct PublisherAppState: Sendable, Equatable {
    /// Derived from the connection phase and the policy.
    public var status: PublisherStatus = .idle
    public var lifecycle: LifecycleState = .active
    public var policy: PublisherPolicyKind
    /// The publish type of the current (or last) broadcast.
    public var publishType: PublishType = .live
    /// Red5's `pauseVideo` flag: no video frames are sent while set.
    public var pauseVideo = false
    /// Red5's `pauseAudio` flag: silence is sent while set.
    public var pauseAudio = false
    /// A tap re-publishes (tap-republish, after an interruption): the policy's flag.
    public var tapArmed = false
    public var streamName: String
    /// The server URL with stream keys and passwords hidden.
    public var redactedURL: String
    /// Connections opened for a publish since the start (first connect, reconnects, `r`): each is a new
    /// connection at the server.
    public var connectionsOpened = 0
    /// When the current connection went live: the live phase's time.
    public var liveSince: SessionTime?
    /// When the broadcast first went live: the session timer. Automatic reconnects keep it; a stop, an
    /// interruption that ends the stream or a give-up clears it.
    public var onAirSince: SessionTime?
    /// The operator paused video (`v`) or audio (`m`) and no policy has resumed it since: a pause the
    /// session must not lift on its own when the app becomes active.
    public var operatorPausedVideo = false
    public var operatorPausedAudio = false
    /// `p` pressed during an interruption: the policy that takes over once the app is active again and
    /// nothing interrupts it.
    public var pendingPolicy: PublisherPolicyKind?
    /// While STALLED: since when the socket accepted nothing, and when the connection is torn down (the
    /// live phase's watchdog).
    public var sendStall: SendStall?
    /// Why each operator command would do nothing now (`PublisherSession.refusal(of:)`), kept after every
    /// event so the footer and help overlay read the core's one rule; commands absent here are accepted.
    public var refusals: [PublisherCommand: String] = [:]
    /// When each running timer runs out: the next reconnect attempt, a background-audio suspension
    /// dropping the connection. For countdowns on the dashboard ("reconnect in 3 s").
    public var timerDeadlines: [PublisherTimer: SessionTime] = [:]
    public var toasts = ToastQueue()
    public var log = EventLog()

    public init(policy: PublisherPolicyKind, streamName: String, redactedURL: String) {
        self.policy = policy
        self.streamName = streamName
        self.redactedURL = redactedURL
    }
}

/// A live connection whose socket accepts nothing (`SendStallWatchdog`), for the STALLED countdown.
public struct SendStall: Sendable, Equatable {
    public var since: SessionTime
    public var tearDownAt: SessionTime

    public init(since: SessionTime, tearDownAt: SessionTime) {
        self.since = since
        self.tearDownAt = tearDownAt
    }
}
