/// What the operator can do to one destination of several (issue 30) besides `reconnect N`: take it off the
/// broadcast (`output-stop N`) and put it back (`output-start N`), the other outputs untouched.
public enum OutputControl: String, Sendable, Hashable, CaseIterable {
    /// The output ends its publish (draining what its connection holds) and stays IDLE while the broadcast
    /// goes on: a destination that misbehaves, or one the operator wants off air.
    case stop = "output-stop"
    /// The output publishes again (its backoff reset) if the broadcast is on air; it follows the broadcast
    /// again from then on.
    case start = "output-start"
}
