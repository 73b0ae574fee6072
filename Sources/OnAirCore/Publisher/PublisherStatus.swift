/// The publisher's state badge on the dashboard (issue 6): one value, derived by the policies.
public enum PublisherStatus: Sendable, Equatable {
    /// Nothing captured, nothing sent.
    case idle
    /// Capturing and showing the preview, not publishing (Red5's `showPreview:YES` before `publish`).
    case preview
    /// A connection and publish are under way.
    case connecting
    /// The server accepted the publish; media flows.
    case publishing
    /// Publishing, with `pauseVideo` set: audio flows, subscribers keep the last frame.
    case pausedVideo
    /// Interrupted (call or Siri) and not sending; the session may resume.
    case interrupted
    /// Stopped after an interruption; a tap re-publishes ("Tap to Re-Publish!").
    case awaitingTap
    /// Live, but the socket has accepted nothing for `--send-timeout`: the link is down or the server
    /// stopped reading. Past the limit the connection is torn down and RECONNECTING follows.
    case stalled
    /// The connection dropped; reconnect `attempt` of `maxAttempts` is scheduled or under way.
    case reconnecting(attempt: Int, maxAttempts: Int)
    /// A failure the operator must act on, in one line.
    case error(String)

    /// The badge text: IDLE, PREVIEW, CONNECTING, PUBLISHING, PAUSED VIDEO, INTERRUPTED,
    /// AWAITING TAP, STALLED, RECONNECTING n/N, ERROR.
    public var badge: String {
        switch self {
        case .idle: "IDLE"
        case .preview: "PREVIEW"
        case .connecting: "CONNECTING"
        case .publishing: "PUBLISHING"
        case .pausedVideo: "PAUSED VIDEO"
        case .interrupted: "INTERRUPTED"
        case .awaitingTap: "AWAITING TAP"
        case .stalled: "STALLED"
        case .reconnecting(let attempt, let maxAttempts): "RECONNECTING \(attempt)/\(maxAttempts)"
        case .error: "ERROR"
        }
    }

    /// True while a broadcast holds a connection or is restoring one: quitting then asks first.
    public var isBroadcasting: Bool {
        switch self {
        case .connecting, .publishing, .pausedVideo, .stalled, .reconnecting: true
        case .idle, .preview, .interrupted, .awaitingTap, .error: false
        }
    }

    /// True while media is being sent to a server (video may be paused).
    public var isLive: Bool {
        switch self {
        case .publishing, .pausedVideo: true
        default: false
        }
    }
}
