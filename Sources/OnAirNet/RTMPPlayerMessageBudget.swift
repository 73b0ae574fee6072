/// How many data and command messages a player passes on per second (issue 29 item 3): a token bucket
/// with the relay's numbers for a client's requests (`RelayConfiguration.requestRate`/`requestBurst`).
///
/// A server that floods `onTextData` (or `onStatus`) as fast as the socket takes them would otherwise
/// turn every one into an event, a log line and a redraw: the subscriber grew 25 MB/s at 100 % CPU. Past
/// the budget the messages are dropped and counted, and the count is told at most once a second as one
/// warning, so a flood costs a line a second, never a backlog. Media is not counted here: its pace is the
/// decoder's, and its backlog is bounded by the front end's inputs.
struct RTMPPlayerMessageBudget: Sendable {
    /// Messages a second, after a burst of ``burst``; a real publisher sends a handful a minute.
    static let rate = 100.0
    static let burst = 500.0
    /// The least time between two drop warnings.
    static let reportInterval = Duration.seconds(1)

    private var tokens = burst
    private var refilled: ContinuousClock.Instant?
    private var dropped = 0
    private var totalDropped = 0
    private var reported: ContinuousClock.Instant?

    /// Whether one more message may pass at `now`; a refused one is counted.
    mutating func admit(at now: ContinuousClock.Instant) -> Bool {
        if let refilled {
            let elapsed = (now - refilled).components
            let seconds = Double(elapsed.seconds) + Double(elapsed.attoseconds) / 1e18
            tokens = min(Self.burst, tokens + max(0, seconds) * Self.rate)
        }
        refilled = now
        guard tokens >= 1 else {
            dropped += 1
            totalDropped += 1
            return false
        }
        tokens -= 1
        return true
    }

    /// The warning to give now about messages dropped since the last one, at most once per ``reportInterval``.
    mutating func takeWarning(at now: ContinuousClock.Instant) -> String? {
        guard dropped > 0, reported.map({ now - $0 >= Self.reportInterval }) ?? true else { return nil }
        reported = now
        defer { dropped = 0 }
        return "the server sent data messages faster than \(Int(Self.rate)) a second: dropped \(dropped) "
            + "(\(totalDropped) in all) — a flood, or a broken publisher"
    }
}
