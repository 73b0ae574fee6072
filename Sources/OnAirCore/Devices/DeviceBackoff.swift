/// When to try a lost device again: 1 s after the loss, then 2 s, 4 s, and 5 s from then on, as OBS does
/// with a webcam that went away. A pure value: the capture thread asks it and keeps the clock.
public struct DeviceBackoff: Sendable, Equatable {
    public static let first: Duration = .seconds(1)
    public static let longest: Duration = .seconds(5)
    /// Attempts that failed since the loss.
    public private(set) var failures = 0

    public init() {}

    /// The wait before the next attempt, counting the one that just failed.
    public mutating func failed() -> Duration {
        failures += 1
        return delay
    }

    /// The wait before the next attempt as things stand.
    public var delay: Duration {
        var wait = DeviceBackoff.first
        for _ in 0..<min(failures, 8) { wait *= 2 }
        return min(wait, DeviceBackoff.longest)
    }

    /// The device is back: the next loss starts at the first delay again.
    public mutating func reset() { failures = 0 }
}
