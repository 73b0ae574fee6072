/// Everything that can happen to a publisher, stamped by the owner and fed to `PublisherSession.handle`.
public enum PublisherEvent: Sendable, Equatable {
    /// A key standing for something done to the phone (call, decline, Home, tap, …).
    case `operator`(OperatorAction)
    /// A console control that is not a phone gesture (toggles, stop, start, next policy).
    case control(PublisherControl)
    /// What the network reported.
    case network(PublisherNetworkEvent)
    /// A timer the session scheduled with `PublisherAction.scheduleTimer` has run out.
    case timerFired(PublisherTimer)
    /// The owner's report of what the socket took, once a tick while a connection is live. Reports only
    /// feed the send-stall watchdog; its `sendStall` timer decides when STALLED starts and when the
    /// connection is torn down.
    case wire(WireProgress)
    /// A fact from the media engine worth a line of the event log (frames dropped, and why): logged,
    /// nothing else.
    case engine(String)
    /// A command the one rule refused before it got here (a link or device command, a server command):
    /// recorded as every refusal is, nothing else.
    case refused(CommandRefusal)
}
