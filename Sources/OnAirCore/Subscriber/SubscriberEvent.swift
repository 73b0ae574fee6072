/// Everything that can happen to a subscriber, stamped by the owner and fed to `SubscriberSession.handle`.
public enum SubscriberEvent: Sendable, Equatable {
    /// A key standing for something done to the subscriber's own phone (call, Home, …).
    case `operator`(OperatorAction)
    /// Start playing, or stop.
    case control(SubscriberControl)
    /// A data message relayed from the publisher's `send()` (docs/design.md §3): dispatched on the handler name.
    case message(handler: String, parameter: String)
    /// An `onStatus` code from the server.
    case status(PlayStatus)
    /// Media arrived after a gap (the first packet after a stall, an unpublish or a new play).
    case mediaResumed
    /// Frames arrive that were captured before the newest one already shown (their frame marker, else their
    /// timestamp, says so): a relay's cache answering a new play. Not live media: never PLAYING.
    case mediaReplayed
    /// The owner's watchdog: no media for the stall timeout while the socket stays open. Stock servers
    /// send nothing when a publisher stalls (interop NOTES: nginx-rtmp), so this stands in for UnpublishNotify.
    case mediaStalled
    /// The play could not be started (connection refused, …).
    case playFailed(reason: String)
    /// The subscriber's own connection closed without being asked to.
    case connectionLost(reason: String)
    /// The subscriber's own link stage changed: logged, nothing else.
    case linkChanged(String)
    /// A timer the session scheduled has run out.
    case timerFired(SubscriberTimer)
    /// A command the one rule refused before it got here (a link command on the subscriber's stage):
    /// recorded as every refusal is, nothing else.
    case refused(CommandRefusal)
}
