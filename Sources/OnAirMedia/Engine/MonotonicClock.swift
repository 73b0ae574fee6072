import Glibc

/// The single clock audio and video are stamped with (CLOCK_MONOTONIC, nanoseconds).
///
/// Why one clock: A/V sync on the subscriber is only as good as the agreement between the two tracks'
/// timestamps; wall-clock time jumps (NTP) and per-device clocks drift. Everything in the engine that
/// becomes a timestamp or a latency comes from here.
public enum MonotonicClock {
    /// Now, in nanoseconds since an arbitrary fixed point (boot).
    public static func now() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }

    /// Blocks the calling (non-cooperative) thread until `deadline`; returns at once if it has passed.
    static func sleep(until deadline: UInt64) throws {
        var time = timespec(tv_sec: Int(deadline / 1_000_000_000), tv_nsec: Int(deadline % 1_000_000_000))
        try CCall.posixReturningError("clock_nanosleep") {
            clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &time, nil)
        }
    }
}
