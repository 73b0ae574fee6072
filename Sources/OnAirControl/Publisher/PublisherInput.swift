import OnAirCore

/// What the publisher side of a front end's loop receives: the core's events, plus results of the
/// controller's own network work tagged with the connection they belong to.
public enum PublisherInput: Sendable {
    /// A key, a console control or a timer, fed straight to the session.
    case event(PublisherEvent)
    /// What connection number `generation` reported. Reports from a connection the session has since
    /// replaced or stopped are stale and dropped, so a late "connection lost" never hits a new broadcast.
    case connection(generation: Int, PublisherNetworkEvent)
    /// The server of connection `generation` asked to reconnect (to `tcUrl`, or the same server when nil).
    case moveRequested(generation: Int, tcUrl: String?)
    /// The connection a move opened (`generation` is its own) publishes, or could not (`failure`).
    case moveFinished(generation: Int, failure: String?)
    /// A capture thread changed a device's status (lost, a reopen failed, back): the loop takes a turn, so
    /// the `device` event is reported when it happened instead of at the next tick (a second, headless).
    case devicesChanged
}
