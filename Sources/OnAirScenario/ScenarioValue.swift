import OnAirCore

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

/// One event as the scenario runner sees it, typed: the runner never reads an event's kind or text back
/// to decide what it was.
public struct ScenarioObservation: Sendable, Equatable {
    public enum What: Sendable, Equatable {
        /// The side's `state` fields (its dashboard summary), by their headless names.
        case state([String: ScenarioValue])
        /// The side's `stats` fields, once a second.
        case stats([String: ScenarioValue])
        case toast(String)
        /// An event-log line or a notice: what `expect SIDE log "TEXT"` looks through.
        case log(String)
        /// Plays the subscriber has asked for since it began: every one after the first is a reconnect.
        case subscriberPlays(Int)
        /// The publisher's status when it changed, typed (its badge's text is a `state` field).
        case publisherStatus(PublisherStatus)
        /// A capture device (`camera`, `microphone`) lost or back, when it changed: the `stats` field of that
        /// name (`lost`, `available`) is read from here until the next `stats` line, so an expectation sees
        /// the change when it happened rather than up to a second later.
        case device(String, available: Bool)
    }

    public var milliseconds: Int64
    /// `publisher`, `subscriber`, `relay` or `app`.
    public var side: String
    public var what: What

    public init(milliseconds: Int64, side: String, _ what: What) {
        self.milliseconds = milliseconds
        self.side = side
        self.what = what
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
