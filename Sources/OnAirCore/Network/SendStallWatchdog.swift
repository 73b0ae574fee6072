/// Tells a publisher whose socket has stopped taking bytes from one that is merely quiet — the rule
/// behind STALLED and the teardown that hands a dead link to the reconnect policy (HaishinKit #555, #1203:
/// a link that is down keeps showing "publishing" while the TCP send buffer absorbs everything).
///
/// One value per live connection, held in `PublisherConnectionPhase.live`. The owner only reports what
/// the client's socket took (`record`); the session asks `check` when its `sendStall` timer runs out and
/// schedules the timer again for the time `check` names, so the timing is decided here and nowhere else.
/// Progress is any growth of the byte count, or nothing waiting (an idle writer is not stalled). With no
/// progress for `stallAfter` the link is stalled; for `tearDownAfter` it is given up. Pure: time comes in
/// with each call.
public struct SendStallWatchdog: Sendable, Equatable {
    public enum Verdict: Sendable, Equatable {
        /// The socket accepts what it is given (or nothing is waiting): look again at `recheckAt`.
        case flowing(recheckAt: SessionTime)
        /// Nothing accepted since `stall.since`; the connection is torn down at `stall.tearDownAt`.
        case stalled(SendStall)
        /// Quiet for long enough, but no report since the last progress has shown a write waiting: the
        /// next report decides (a sample that never came is not evidence of a stuck socket).
        case awaitingReport
        /// Nothing accepted for `tearDownAfter` or longer: close the connection and reconnect.
        case tearDown(stalledFor: Duration)
    }

    /// How long the socket may accept nothing before the dashboard says STALLED (`--send-timeout`).
    public let stallAfter: Duration
    /// How long it may accept nothing before the connection is torn down.
    public let tearDownAfter: Duration
    /// The last report that showed progress (or when the connection went live).
    public private(set) var lastProgress: SessionTime
    /// While STALLED: since when, and when the connection is torn down.
    public private(set) var stall: SendStall?
    /// Nil until the first report of this connection: that one counts as progress.
    private var lastBytes: UInt64?
    /// A report since `lastProgress` showed a write waiting with no byte taken.
    private var sawWaitingWrite = false

    /// A watchdog for a connection that went live at `liveAt`. `tearDownAfter` defaults to three times
    /// `stallAfter`: STALLED shows early, but a phone's link that comes back within that (an elevator of
    /// 10 s with the default 5 s) resumes on the same connection, as its TCP connection would, instead of
    /// losing the backoff's 2 s to a reconnect (the elevator scenario's first new frame came 2.1 s after
    /// link-up when the teardown fell at twice, 10 s).
    public init(stallAfter: Duration = .seconds(5), tearDownAfter: Duration? = nil, liveAt: SessionTime) {
        self.stallAfter = stallAfter
        self.tearDownAfter = max(tearDownAfter ?? stallAfter * 3, stallAfter)
        lastProgress = liveAt
    }

    /// One report of the client's counters at `now`; returns true when it shows progress (a STALLED
    /// link then flows again at once).
    @discardableResult
    public mutating func record(_ progress: WireProgress, at now: SessionTime) -> Bool {
        guard let last = lastBytes, progress.bytesWritten == last, progress.writePending else {
            lastBytes = progress.bytesWritten
            lastProgress = now
            sawWaitingWrite = false
            stall = nil
            return true
        }
        sawWaitingWrite = true
        return false
    }

    /// The verdict at `now`, keeping `stall` in step with it.
    public mutating func check(at now: SessionTime) -> Verdict {
        let quiet = now.since(lastProgress)
        guard quiet >= stallAfter else {
            stall = nil
            return .flowing(recheckAt: lastProgress + stallAfter)
        }
        guard sawWaitingWrite else { return .awaitingReport }
        if quiet >= tearDownAfter { return .tearDown(stalledFor: quiet) }
        let current = SendStall(since: lastProgress, tearDownAt: lastProgress + tearDownAfter)
        stall = current
        return .stalled(current)
    }
}
