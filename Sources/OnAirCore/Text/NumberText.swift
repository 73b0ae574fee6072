/// Durations and rates as people type them (command line) and scenario files write them, with bounds.
///
/// One parser for both so that a value like `1e19` is refused with a sentence instead of trapping when it
/// is later turned into an integer number of milliseconds: every value this returns is finite and within
/// the caller's range, so `Int64(seconds * 1000)` downstream cannot overflow.
public enum NumberText {
    /// Why a value was refused, in one line that names the option and the accepted form.
    public struct Invalid: Error, Equatable, CustomStringConvertible {
        public var description: String

        public init(_ description: String) {
            self.description = description
        }
    }

    private static let units: [(suffix: String, milliseconds: Double)] = [
        ("ms", 1), ("s", 1000), ("m", 60_000), ("h", 3_600_000),
    ]

    /// `text` as a duration: a non-negative decimal number with a unit (`500ms`, `12s`, `1.5m`, `2h`), or
    /// without one when `bareNumbersAreSeconds` (the command line's `--idle-timeout 15`). Nil when it is
    /// not such a number or exceeds `maximum`. Exponents, `inf` and `nan` are not numbers here.
    public static func duration(_ text: String, bareNumbersAreSeconds: Bool, maximum: Duration) -> Duration? {
        var number = Substring(text)
        var scale: Double?
        for unit in units where text.hasSuffix(unit.suffix) {
            // "ms" before "s" and "m": the first suffix that matches is the longest.
            number = text.dropLast(unit.suffix.count)
            scale = unit.milliseconds
            break
        }
        if scale == nil, bareNumbersAreSeconds { scale = 1000 }
        guard let scale, let value = plainDecimal(number) else { return nil }
        let milliseconds = value * scale
        let maximumMilliseconds = Double(maximum.components.seconds) * 1000
        guard milliseconds <= maximumMilliseconds else { return nil }
        return .milliseconds(Int64(milliseconds.rounded()))
    }

    /// `text` as a duration in `range`, or a one-line reason (prefixed with `option` when given).
    public static func duration(_ text: String, option: String? = nil, in range: ClosedRange<Duration>) throws(Invalid) -> Duration {
        let prefix = option.map { "\($0): " } ?? ""
        guard let value = duration(text, bareNumbersAreSeconds: true, maximum: .seconds(Int64.max / 4_000)) else {
            // The range too: `1e19` or `inf` is usually a try at "as long as possible".
            throw Invalid("\(prefix)expected a duration from \(describe(range.lowerBound)) to \(describe(range.upperBound)), such as 15 (seconds), 15s, 500ms or 2m")
        }
        guard range.contains(value) else {
            throw Invalid("\(prefix)out of range; give \(describe(range.lowerBound)) to \(describe(range.upperBound))")
        }
        return value
    }

    /// `text` as a rate (frames per second and the like) in `range`, or a one-line reason (prefixed with
    /// `option` when given).
    public static func rate(_ text: String, option: String? = nil, in range: ClosedRange<Double>) throws(Invalid) -> Double {
        let prefix = option.map { "\($0): " } ?? ""
        guard let value = plainDecimal(Substring(text)) else {
            throw Invalid("\(prefix)expected a number from \(plain(range.lowerBound)) to \(plain(range.upperBound)), such as 30 or 29.97")
        }
        guard range.contains(value) else {
            throw Invalid("\(prefix)out of range; give \(plain(range.lowerBound)) to \(plain(range.upperBound))")
        }
        return value
    }

    /// Whole and fractional seconds of a duration, for options kept as `Double` seconds.
    public static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    /// A duration as the shortest text this parser reads back (`0`, `500ms`, `15s`, `2m`, `24h`).
    public static func describe(_ duration: Duration) -> String {
        let milliseconds = duration.components.seconds * 1000 + duration.components.attoseconds / 1_000_000_000_000_000
        if milliseconds == 0 { return "0" }
        if milliseconds % 3_600_000 == 0 { return "\(milliseconds / 3_600_000)h" }
        if milliseconds % 60_000 == 0 { return "\(milliseconds / 60_000)m" }
        if milliseconds % 1000 == 0 { return "\(milliseconds / 1000)s" }
        return "\(milliseconds)ms"
    }

    /// Digits with at most one decimal point, at most 12 digits before it: nothing Double would read as
    /// an exponent, infinity or NaN.
    private static func plainDecimal(_ text: Substring) -> Double? {
        guard !text.isEmpty, text.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }),
              text.filter({ $0 == "." }).count <= 1, (text.firstIndex(of: ".").map { text[..<$0] } ?? text).count <= 12
        else { return nil }
        guard let value = Double(text), value.isFinite else { return nil }
        return value
    }

    private static func plain(_ value: Double) -> String {
        value.rounded() == value ? String(Int64(value)) : String(value)
    }
}
