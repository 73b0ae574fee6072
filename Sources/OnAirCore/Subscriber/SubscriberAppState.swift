/// The subscriber's connection as its dashboard shows it.
public enum SubscriberConnection: Sendable, Equatable {
    case idle
    case connecting
    /// Media of the current play is arriving.
    case playing
    /// Frames arrive, but they were captured before the newest one already shown (docs/demo-truth.md).
    case replaying
    /// Connected, but no media of the current play has arrived: the server accepted the play (stock
    /// servers answer Play.Start for any name) or said StreamNotFound, or the publisher unpublished.
    case waitingForPublisher
    /// Media was arriving and has stopped for `--stall-timeout` while the connection stays open.
    case stalled
    /// Stopped after UnpublishNotify while the publisher was in the background; plays again at `at`.
    case reconnecting(at: SessionTime)
    case error(String)

    public var label: String {
        switch self {
        case .idle: "IDLE"
        case .connecting: "CONNECTING"
        case .playing: "PLAYING"
        case .replaying: "REPLAYED"
        case .waitingForPublisher: "WAITING FOR PUBLISHER"
        case .stalled: "STALLED"
        case .reconnecting: "RECONNECTING"
        case .error: "ERROR"
        }
    }
}

/// Everything the subscriber dashboard shows (seeds: SubscribeTelephonyInterruptTest, SubscribeBackgroundTest).
public struct SubscriberAppState: Sendable, Equatable {
    /// Read off `SubscriberSession.phase` after every event.
    public var connection: SubscriberConnection = .idle
    public var lifecycle: LifecycleState = .active
    /// Set by `publisherBackground`; cleared by `publisherForeground`, by PublishNotify (a new publish began:
    /// the seed's publisher never says foreground after a tap) and by live media after an unpublish.
    public var publisherIsInBackground = false
    /// Set by UnpublishNotify while `publisherIsInBackground`; cleared when the stream plays again.
    public var publisherIsDisconnected = false
    /// False between `pauseRender` and `resumeRender`: incoming video is counted, not decoded.
    public var renderActive = true
    public var streamName: String
    public var redactedURL: String
    /// Plays started by the reconnect loop so far (0 outside the loop): the phase's count.
    public var reconnectAttempts = 0
    /// Every play asked for since the session began (the first, and each reconnect): never reset, so a
    /// scenario counts reconnects from it rather than from the log's text.
    public internal(set) var playsAsked = 0
    /// Why each phone gesture would do nothing now (`SubscriberSession.refusal(of:)`), for the console.
    public var refusals: [OperatorAction: String] = [:]
    public var toasts = ToastQueue()
    public var log = EventLog()

    public init(streamName: String, redactedURL: String) {
        self.streamName = streamName
        self.redactedURL = redactedURL
    }
}
