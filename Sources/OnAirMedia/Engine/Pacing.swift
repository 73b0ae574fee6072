/// How a file or synthetic source releases its frames.
public enum Pacing: Sendable, Equatable {
    /// One frame per frame interval on the monotonic clock, like a camera: the live default.
    case realTime
    /// As fast as the consumer reads, with nominal timestamps: for benchmarks and tests that count frames.
    case unpaced
}

/// Turns "tick n" into a deadline on the monotonic clock and sleeps until it.
///
/// Deadlines are computed from the first tick (start + n × interval), never by adding intervals to "now",
/// so sleeping late once does not make the stream drift. When the reader falls more than one interval
/// behind (the encoder could not keep up), the pacer skips the missed ticks instead of bursting to catch up,
/// and reports how many it skipped.
struct RealTimePacer {
    let pacing: Pacing
    let intervalNanoseconds: Double
    private var start: UInt64?
    private(set) var tick: Int64 = 0

    init(pacing: Pacing, intervalNanoseconds: Double) {
        self.pacing = pacing
        self.intervalNanoseconds = intervalNanoseconds
    }

    /// Waits for the next tick; returns its nominal capture time and how many ticks were skipped first.
    mutating func next() throws -> (time: UInt64, skipped: Int) {
        let now = MonotonicClock.now()
        guard let start else {
            self.start = now
            tick = 1
            return (now, 0)
        }
        var due = start + UInt64(Double(tick) * intervalNanoseconds)
        var skipped = 0
        if pacing == .realTime {
            if now > due + UInt64(intervalNanoseconds) {
                let behind = Int64(Double(now - start) / intervalNanoseconds)
                skipped = Int(behind - tick)
                tick = behind
                due = start + UInt64(Double(tick) * intervalNanoseconds)
            }
            try MonotonicClock.sleep(until: due)
        }
        tick += 1
        return (due, skipped)
    }
}
