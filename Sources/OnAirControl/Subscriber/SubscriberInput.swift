import OnAirCore
import OnAirNet

/// What the subscriber side of a front end's loop receives.
public enum SubscriberInput: Sendable {
    /// A key, a control or a timer, fed straight to the session.
    case event(SubscriberEvent)
    /// What play connection number `generation` reported; reports from a replaced connection are dropped.
    case player(generation: Int, RTMPPlayer.Event)
    /// The play of connection `generation` could not start.
    case playFailed(generation: Int, reason: String)
    /// Once a second or so: the stall watchdog looks at the time of the last media.
    case tick
}
