/// Where the publisher's connection is. `PublisherSession` is the only place that changes it, and only
/// while applying actions or network events, so it is never assigned from many places.
public enum PublisherConnectionPhase: Sendable, Equatable {
    /// No connection: idle or preview.
    case none
    /// `publish` was sent on a new connection; waiting for `NetStream.Publish.Start`.
    case connecting
    /// The server accepted the publish.
    case live
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
        case .none, .dropped, .failed: false
        }
    }
}
