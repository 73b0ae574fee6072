import OnAirCore
import OnAirNet

/// What the subscriber side of a front end's loop receives.
public enum SubscriberInput: Sendable {
    /// A key, a control or a timer, fed straight to the session.
    case event(SubscriberEvent)
    /// What play connection number `generation` reported; reports from a replaced connection are dropped.
    /// `handled`, when the player's task waits for the loop to handle it before its next packet.
    case player(generation: Int, RTMPPlayer.Event, handled: SubscriberAck? = nil)
    /// What connection `generation`'s packets, gone straight to the decoder (``SubscriberMediaPath``),
    /// changed: the flow's verdict, a frame rate measured from timestamps.
    case media(generation: Int, verdict: FrameFreshness.Verdict?, measuredTrack: VideoTrackDescription?)
    /// The play of connection `generation` could not start.
    case playFailed(generation: Int, reason: String)
    /// Once a second or so: the stall watchdog looks at the time of the last media.
    case tick
}
