import OnAirCore

/// Durations as scenario files write them: `2s`, `1.5s`, `500ms`, `2m` (the command line's parser, unit required).
enum ScenarioDurationText {
    /// Longer than any scenario should run; also keeps the arithmetic far from overflow.
    static let maximum: Duration = .seconds(3600)

    /// The duration `text` stands for; nil when it is not a non-negative number with a unit, or too long.
    static func parse(_ text: String) -> Duration? {
        NumberText.duration(text, bareNumbersAreSeconds: false, maximum: maximum)
    }
}
