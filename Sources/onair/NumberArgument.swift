import OnAirCore

/// `@Option(transform:)` closures over `NumberText`: a bad or out-of-range number is a one-line usage
/// error (exit 2) at parse time, never a trap when it is later turned into milliseconds.
enum NumberArgument {
    /// Seconds in `range` (`15`, `15s`, `500ms`, `2m`), kept as `Double` seconds.
    static func seconds(in range: ClosedRange<Duration>) -> @Sendable (String) throws -> Double {
        { text in NumberText.seconds(try NumberText.duration(text, in: range)) }
    }

    /// A rate in `range`.
    static func rate(in range: ClosedRange<Double>) -> @Sendable (String) throws -> Double {
        { text in try NumberText.rate(text, in: range) }
    }

    static let aDay: Duration = .seconds(86_400)
    static let aYear: Duration = .seconds(86_400 * 366)
    static let aMillisecond: Duration = .milliseconds(1)
}
