import Glibc

/// CLOCK_REALTIME in microseconds: the clock frame markers carry, so that a subscriber in another process
/// (or, with synchronised clocks, on another machine) can tell how long ago a picture was captured.
///
/// Why not the monotonic clock: its origin is the boot of one machine. Capture instants are taken on the
/// monotonic clock (it never jumps) and translated to wall time only when written into a marker.
public enum WallClock {
    public static func nowMicroseconds() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        return UInt64(time.tv_sec) * 1_000_000 + UInt64(time.tv_nsec) / 1000
    }

    /// The wall-clock instant (µs) of a monotonic instant (ns) in the recent past or near future.
    public static func microseconds(ofMonotonic monotonicNanoseconds: UInt64) -> UInt64 {
        let wall = nowMicroseconds()
        let monotonic = MonotonicClock.now()
        if monotonicNanoseconds <= monotonic {
            return wall &- (monotonic - monotonicNanoseconds) / 1000
        }
        return wall &+ (monotonicNanoseconds - monotonic) / 1000
    }
}
