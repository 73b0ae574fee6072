/// A value of a headless event's `details`, as far as expectations compare them.
public enum ScenarioValue: Sendable, Equatable {
    case text(String)
    case number(Double)
    case flag(Bool)

    /// How the value reads in a message and how `is VALUE` compares it: numbers without a needless `.0`.
    public var text: String {
        switch self {
        case .text(let text): text
        case .flag(let flag): flag ? "true" : "false"
        case .number(let number):
            number.rounded() == number && abs(number) < 1e15 ? String(Int64(number)) : String(number)
        }
    }

    public var number: Double? {
        if case .number(let number) = self { return number }
        return nil
    }
}

/// One headless event as the scenario runner sees it: what the JSON Lines output prints.
public struct ScenarioObservation: Sendable, Equatable {
    public var milliseconds: Int64
    /// `publisher`, `subscriber`, `relay` or `app`.
    public var side: String
    public var kind: String
    public var fields: [String: ScenarioValue]

    public init(milliseconds: Int64, side: String, kind: String, fields: [String: ScenarioValue]) {
        self.milliseconds = milliseconds
        self.side = side
        self.kind = kind
        self.fields = fields
    }
}

/// What the runner read from a recording file for `expect recording …` and the report.
public struct RecordingSummary: Sendable, Equatable {
    public var name: String
    /// From the first tag's timestamp to the last's.
    public var duration: Duration
    public var tags: Int
    /// The largest step forward between consecutive tags.
    public var largestJump: Duration
    /// True when a tag's timestamp is below the one before it.
    public var goesBackwards: Bool

    public init(name: String, duration: Duration, tags: Int, largestJump: Duration, goesBackwards: Bool) {
        self.name = name
        self.duration = duration
        self.tags = tags
        self.largestJump = largestJump
        self.goesBackwards = goesBackwards
    }
}
