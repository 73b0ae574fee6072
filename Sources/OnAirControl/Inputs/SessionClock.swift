import OnAirCore

/// Stamps events with `SessionTime`: milliseconds on the monotonic clock since the front end started.
///
/// The pure core never reads a clock; this is the one place a front end does.
public struct SessionClock: Sendable {
    private let start: ContinuousClock.Instant

    public init(start: ContinuousClock.Instant = .now) {
        self.start = start
    }

    public var now: SessionTime {
        SessionTime(milliseconds: start.duration(to: .now).wholeMilliseconds)
    }

    /// The session time at which `instant` fell (a reading stamped where it was taken).
    public func time(at instant: ContinuousClock.Instant) -> SessionTime {
        SessionTime(milliseconds: start.duration(to: instant).wholeMilliseconds)
    }

    /// The instant at which `time` falls, for scheduling timers the core asked for.
    public func instant(at time: SessionTime) -> ContinuousClock.Instant {
        start.advanced(by: .milliseconds(time.milliseconds))
    }
}
