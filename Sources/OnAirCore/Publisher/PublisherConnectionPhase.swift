/// Where the publisher's connection is, with what belongs to that phase alone: the reconnect attempt
/// only while one is scheduled or under way, the live time and the send-stall watchdog only while live,
/// the preview only while nothing is published. `PublisherSession` changes it in one function
/// (`enter(_:at:)`), which also keeps the phase's timers in step, so no fact is kept twice.
public enum PublisherConnectionPhase: Sendable, Equatable {
    /// No connection; the local camera preview shows or not (Red5 `showPreview:`).
    case idle(preview: Bool)
    /// `publish` was sent on a new connection; waiting for `NetStream.Publish.Start`. `reconnectAttempt`
    /// is set while this publish is an automatic reconnect (or `r`), nil for a new broadcast.
    case connecting(reconnectAttempt: Int?)
    /// The server accepted the publish at `since`; `watchdog` says whether the socket still takes bytes.
    case live(since: SessionTime, watchdog: SendStallWatchdog)
    /// The connection was lost; reconnect attempt `attempt` waits for its timer.
    case waitingToReconnect(attempt: Int)
    /// Closed on purpose to show a suspended app dropping off (background-audio).
    case dropped
    /// Gave up; the message is what the operator sees.
    case failed(String)

    /// A broadcast is under way or being restored: the seeds' "publishStream != nil / mode == publish".
    public var isBroadcasting: Bool {
        switch self {
        case .connecting, .live, .waitingToReconnect: true
        case .idle, .dropped, .failed: false
        }
    }

    /// The server accepted the publish (STALLED included).
    public var isLive: Bool {
        if case .live = self { return true }
        return false
    }

    /// The reconnect attempt scheduled or under way, nil when none is.
    public var reconnectAttempt: Int? {
        switch self {
        case .connecting(let attempt): attempt
        case .waitingToReconnect(let attempt): attempt
        case .idle, .live, .dropped, .failed: nil
        }
    }

    /// While STALLED: since when the socket took nothing, and when the connection is torn down.
    public var sendStall: SendStall? {
        if case .live(_, let watchdog) = self { return watchdog.stall }
        return nil
    }

    /// When the current connection went live.
    public var liveSince: SessionTime? {
        if case .live(let since, _) = self { return since }
        return nil
    }

    /// The local preview shows (only while nothing is published).
    public var previewOn: Bool {
        if case .idle(preview: true) = self { return true }
        return false
    }
}
