/// Durations as scenario files write them: `2s`, `1.5s`, `500ms`, `2m`.
enum ScenarioDurationText {
    /// Longer than any scenario should run; also keeps the arithmetic far from overflow.
    static let maximum: Duration = .seconds(3600)

    /// The duration `text` stands for; nil when it is not a non-negative number with a unit, or too long.
    static func parse(_ text: String) -> Duration? {
        let units: [(suffix: String, milliseconds: Double)] = [("ms", 1), ("s", 1000), ("m", 60_000)]
        for unit in units where text.hasSuffix(unit.suffix) {
            let number = text.dropLast(unit.suffix.count)
            guard
                !number.isEmpty, number.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }),
                let value = Double(number), value.isFinite, value >= 0
            else { return nil }
            let milliseconds = value * unit.milliseconds
            guard milliseconds <= Double(maximum.components.seconds * 1000) else { return nil }
            return .milliseconds(Int64(milliseconds.rounded()))
        }
        return nil
    }
}
