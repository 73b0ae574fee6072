/// The subscriber's connection as its dashboard shows it.
public enum SubscriberConnection: Sendable, Equatable {
    case idle
    case connecting
    /// Play.Start received; media may or may not be flowing yet.
    case playing
    /// Connected, but the stream is not published (StreamNotFound, or UnpublishNotify without a background notice).
    case waitingForPublisher
    /// Stopped after UnpublishNotify while the publisher was in the background; plays again at `at`.
    case reconnecting(at: SessionTime)
    case error(String)

    public var label: String {
        switch self {
        case .idle: "IDLE"
        case .connecting: "CONNECTING"
        case .playing: "PLAYING"
        case .waitingForPublisher: "WAITING FOR PUBLISHER"
        case .reconnecting: "RECONNECTING"
        case .error: "ERROR"
        }
    }
}

/// Everything the subscriber dashboard shows (seeds: SubscribeTelephonyInterruptTest, SubscribeBackgroundTest).
public struct SubscriberAppState: Sendable, Equatable {
    public var connection: SubscriberConnection = .idle
    public var lifecycle: LifecycleState = .active
    /// Set by `publisherBackground`, cleared by `publisherForeground`.
    public var publisherIsInBackground = false
    /// Set by UnpublishNotify while `publisherIsInBackground`; cleared when the stream plays again.
    public var publisherIsDisconnected = false
    /// False between `pauseRender` and `resumeRender`: incoming video is counted, not decoded.
    public var renderActive = true
    public var streamName: String
    public var redactedURL: String
    /// Plays started by the reconnect loop so far.
    public var reconnectAttempts = 0
    public var toasts = ToastQueue()
    public var log = EventLog()

    public init(streamName: String, redactedURL: String) {
        self.streamName = streamName
        self.redactedURL = redactedURL
    }
}
