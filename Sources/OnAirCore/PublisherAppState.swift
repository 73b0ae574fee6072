/// Everything the publisher dashboard shows, kept by the publisher's state machines
/// (lifecycle simulator + policy) and stamped by their owner. Plain data: no behaviour beyond derivations.
public struct PublisherAppState: Sendable, Equatable {
    public var status: PublisherStatus = .idle
    public var lifecycle: LifecycleState = .active
    public var policy: PublisherPolicyKind
    /// The publish type of the current (or last) broadcast.
    public var publishType: PublishType = .live
    /// Red5's `pauseVideo` flag: no video frames are sent while set.
    public var pauseVideo = false
    /// Red5's `pauseAudio` flag: silence is sent while set.
    public var pauseAudio = false
    /// A tap re-publishes (tap-republish, after an interruption).
    public var tapArmed = false
    public var streamName: String
    /// The server URL with stream keys and passwords hidden.
    public var redactedURL: String
    /// When the current broadcast started, for the session timer.
    public var liveSince: SessionTime?
    public var toasts = ToastQueue()
    public var log = EventLog()

    public init(policy: PublisherPolicyKind, streamName: String, redactedURL: String) {
        self.policy = policy
        self.streamName = streamName
        self.redactedURL = redactedURL
    }
}
