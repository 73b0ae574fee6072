/// Milliseconds since the front end started: every event, log entry and toast is stamped with one.
///
/// The pure core never reads a clock; the owner of a state machine stamps each event with the time
/// from its (real or test) clock. That keeps every flow replayable in tests without sleeping.
public struct SessionTime: Sendable, Equatable, Comparable, Hashable, Codable {
    public var milliseconds: Int64

    public init(milliseconds: Int64) {
        self.milliseconds = milliseconds
    }

    public static let zero = SessionTime(milliseconds: 0)

    public static func < (lhs: SessionTime, rhs: SessionTime) -> Bool { lhs.milliseconds < rhs.milliseconds }

    public static func + (lhs: SessionTime, rhs: Duration) -> SessionTime {
        SessionTime(milliseconds: lhs.milliseconds + rhs.wholeMilliseconds)
    }

    /// The time from `earlier` to this one.
    public func since(_ earlier: SessionTime) -> Duration { .milliseconds(milliseconds - earlier.milliseconds) }

    /// `mm:ss.mmm` (or `h:mm:ss.mmm` past an hour), as the event log shows it.
    public var logStamp: String {
        let total = max(0, milliseconds)
        let millis = total % 1000
        let seconds = (total / 1000) % 60
        let minutes = (total / 60_000) % 60
        let hours = total / 3_600_000
        let body = "\(Self.pad(minutes, 2)):\(Self.pad(seconds, 2)).\(Self.pad(millis, 3))"
        return hours > 0 ? "\(hours):\(body)" : body
    }

    private static func pad(_ value: Int64, _ width: Int) -> String {
        let text = String(value)
        return String(repeating: "0", count: max(0, width - text.count)) + text
    }
}

extension Duration {
    /// The duration in whole milliseconds, rounded toward zero.
    public var wholeMilliseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1000 + attoseconds / 1_000_000_000_000_000
    }
}
