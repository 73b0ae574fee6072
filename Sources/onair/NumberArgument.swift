import OnAirCore

/// `@Option(transform:)` closures over `NumberText`: a bad or out-of-range number is a one-line usage
/// error (exit 2) at parse time, never a trap when it is later turned into milliseconds.
enum NumberArgument {
    /// Seconds in `range` (`15`, `15s`, `500ms`, `2m`), kept as `Double` seconds.
    static func seconds(in range: ClosedRange<Duration>) -> @Sendable (String) throws -> Double {
        { text in NumberText.seconds(try NumberText.duration(text, in: range)) }
    }

    /// Seconds: 0 (off) or from `minimum` to `maximum`. A value that is not 0 but under the minimum — or so
    /// small it rounds to nothing and would silently mean "off" — is a usage error with the range (issue 29).
    static func secondsOrOff(minimum: Duration, maximum: Duration) -> @Sendable (String) throws -> Double {
        { text in
            let value = try NumberText.duration(text, in: .zero...maximum)
            let saysZero = text.drop(while: { $0 == "0" || $0 == "." }).allSatisfy { "smh".contains($0) }
            if value == .zero && saysZero { return 0 }
            guard value >= minimum else {
                throw NumberText.Invalid("out of range; give 0 (off) or \(Int(NumberText.seconds(minimum))) to \(Int(NumberText.seconds(maximum))) seconds")
            }
            return NumberText.seconds(value)
        }
    }

    /// A rate in `range`.
    static func rate(in range: ClosedRange<Double>) -> @Sendable (String) throws -> Double {
        { text in try NumberText.rate(text, in: range) }
    }

    static let aDay: Duration = .seconds(86_400)
    static let aYear: Duration = .seconds(86_400 * 366)
    static let aMillisecond: Duration = .milliseconds(1)
}
