/// The timers the publisher's state machines ask their owner to run; each comes back as `timerFired`.
public enum PublisherTimer: String, Sendable, Equatable, Hashable, CaseIterable, Codable {
    /// The wait before the next automatic reconnect attempt (`ReconnectPolicy`).
    case reconnect
    /// How long a call may suspend a background-audio publisher before its connection drops.
    case suspension
    /// While live: when the send-stall watchdog looks at the socket again (`--send-timeout` after the
    /// last progress, then the teardown at three times that).
    case sendStall
}
