/// Tells a publisher whose socket has stopped taking bytes from one that is merely quiet — the rule
/// behind STALLED and the teardown that hands a dead link to the reconnect policy (HaishinKit #555, #1203:
/// a link that is down keeps showing "publishing" while the TCP send buffer absorbs everything).
///
/// The owner samples the RTMP client's counters once a tick: how many bytes the socket has accepted so
/// far and whether a write is waiting. Progress is any growth of that count, or nothing waiting (an
/// idle writer is not stalled). With no progress for `stallAfter` the link is stalled; for `tearDownAfter`
/// it is given up. Pure: time comes in with each observation.
public struct SendStallWatchdog: Sendable, Equatable {
    public enum Verdict: Sendable, Equatable {
        /// The socket accepts what it is given (or nothing is waiting).
        case flowing
        /// Nothing accepted since `since`; the connection is torn down at `tearDownAt`.
        case stalled(since: SessionTime, tearDownAt: SessionTime)
        /// Nothing accepted for `tearDownAfter` or longer: close the connection and reconnect.
        case tearDown(stalledFor: Duration)
    }

    /// How long the socket may accept nothing before the dashboard says STALLED (`--send-timeout`).
    public let stallAfter: Duration
    /// How long it may accept nothing before the connection is torn down.
    public let tearDownAfter: Duration
    private var lastProgress: SessionTime?
    private var lastBytes: UInt64 = 0

    /// `tearDownAfter` defaults to twice `stallAfter`: STALLED counts down for as long again.
    public init(stallAfter: Duration = .seconds(5), tearDownAfter: Duration? = nil) {
        self.stallAfter = stallAfter
        self.tearDownAfter = max(tearDownAfter ?? stallAfter * 2, stallAfter)
    }

    /// Starts over for a new connection: its first observation counts as progress.
    public mutating func reset() {
        lastProgress = nil
        lastBytes = 0
    }

    /// One sample of the client's counters at `now`.
    public mutating func observe(bytesWritten: UInt64, writePending: Bool, at now: SessionTime) -> Verdict {
        guard let last = lastProgress, bytesWritten == lastBytes, writePending else {
            lastProgress = now
            lastBytes = bytesWritten
            return .flowing
        }
        let quiet = now.since(last)
        if quiet >= tearDownAfter { return .tearDown(stalledFor: quiet) }
        if quiet >= stallAfter { return .stalled(since: last, tearDownAt: last + tearDownAfter) }
        return .flowing
    }
}
