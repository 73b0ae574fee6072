import OnAirCore

/// What a scenario run has seen so far: the key presses it made and the headless events both sides
/// printed, kept in the shape expectations and the report ask about (bounded, however long the run).
public struct ScenarioTimeline: Sendable {
    /// A `press` line, as performed.
    public struct Press: Sendable, Equatable {
        public var milliseconds: Int64
        public var command: OperatorCommand
        /// How the line wrote it: the report's trigger.
        public var typed: String
        public var line: Int
    }

    /// A toast or event-log line.
    struct Line: Sendable, Equatable {
        enum Kind: Sendable, Equatable {
            case toast
            case log
        }

        var milliseconds: Int64
        var side: String
        var kind: Kind
        var text: String
    }

    /// Old lines are forgotten past this; expectations only look back to the last press.
    static let lineLimit = 2000
    /// Two hours of once-a-second samples.
    static let sampleLimit = 7200

    /// One number from a `stats` event, at its time.
    struct Sample: Sendable, Equatable {
        var milliseconds: Int64
        var value: Double
    }

    struct FrozenWindow: Sendable, Equatable {
        var start: ScenarioExpectation.SubscriberReading
        var startMilliseconds: Int64
        var length: Duration
    }

    public private(set) var presses: [Press] = []
    private(set) var lines: [Line] = []
    private(set) var latestState: [String: [String: ScenarioValue]] = [:]
    private(set) var latestStats: [String: [String: ScenarioValue]] = [:]
    /// The figures countedMetrics as events arrive; ``metrics`` adds those worked out from the series below.
    private(set) var countedMetrics = ScenarioMetrics()
    /// The subscriber's `frozenMs`, its current video gap (`videoGapMs`) and longest (`longestVideoGapMs`),
    /// and the publisher's sent rate, once per `stats` event (bounded).
    private(set) var frozenSeries: [Sample] = []
    private(set) var gapSeries: [Sample] = []
    /// The subscriber's decoded frames per second, one sample per `stats` event.
    private(set) var framesPerSecondSeries: [Sample] = []
    private(set) var longestGapSeries: [Sample] = []
    private(set) var sentRateSeries: [Sample] = []
    /// How many subscriber `stats` events have arrived: a frozen window needs one after its start.
    private(set) var subscriberStatsSeen = 0
    /// The `frozen|gap below … for W` windows played so far: where each started and how long it lasted.
    private(set) var frozenWindows: [FrozenWindow] = []
    /// The publisher's badge as last seen, and since when it has not been live.
    private var publisherStatus: PublisherStatus?
    private var notLiveSince: Int64?
    private var wasLive = false

    public init() {}

    /// The time expectations about toasts and log lines look back to: the last press, or the start.
    public var lastPressTime: Int64 { presses.last?.milliseconds ?? 0 }

    public mutating func recordPress(_ command: OperatorCommand, typed: String, line: Int, at milliseconds: Int64) {
        presses.append(Press(milliseconds: milliseconds, command: command, typed: typed, line: line))
        if presses.count > Self.lineLimit { presses.removeFirst(presses.count - Self.lineLimit) }
    }

    public mutating func record(_ observation: ScenarioObservation) {
        switch observation.what {
        case .state(let fields):
            latestState[observation.side] = fields
        case .stats(let fields):
            record(stats: fields, of: observation.side, at: observation.milliseconds)
        case .toast(let text):
            append(Line(milliseconds: observation.milliseconds, side: observation.side, kind: .toast, text: text))
        case .log(let text):
            append(Line(milliseconds: observation.milliseconds, side: observation.side, kind: .log, text: text))
        case .subscriberPlays(let plays):
            // Every play after the first is the subscriber trying again (its state's counter resets too
            // quickly to be sampled).
            countedMetrics.subscriberReconnectAttempts = max(0, plays - 1)
        case .publisherStatus(let status):
            publisherStatusChanged(status, at: observation.milliseconds)
        case .device(let name, let available):
            // Before the side's first `stats` line there is no picture to amend: that line will carry it.
            latestStats[observation.side]?[name] = .text(DeviceStatus.statsValue(available: available))
        }
    }

    private mutating func append(_ line: Line) {
        lines.append(line)
        if lines.count > Self.lineLimit { lines.removeFirst(lines.count - Self.lineLimit) }
    }

    private mutating func record(stats fields: [String: ScenarioValue], of side: String, at milliseconds: Int64) {
        let observation = (milliseconds: milliseconds, side: side, fields: fields)
        latestStats[side] = fields
        if observation.side == "subscriber" {
            subscriberStatsSeen += 1
            let gap = max(observation.fields["longestVideoGapMs"]?.number ?? 0, observation.fields["videoGapMs"]?.number ?? 0)
            if observation.fields["longestVideoGapMs"] != nil {
                countedMetrics.longestVideoGap = max(countedMetrics.longestVideoGap ?? .zero, .milliseconds(Int64(gap)))
            }
            if let frozen = observation.fields["frozenMs"]?.number {
                Self.append(Sample(milliseconds: observation.milliseconds, value: frozen), to: &frozenSeries)
            }
            if let rate = observation.fields["fps"]?.number {
                Self.append(Sample(milliseconds: observation.milliseconds, value: rate), to: &framesPerSecondSeries)
            }
            if let current = observation.fields["videoGapMs"]?.number, let longest = observation.fields["longestVideoGapMs"]?.number {
                Self.append(Sample(milliseconds: observation.milliseconds, value: current), to: &gapSeries)
                Self.append(Sample(milliseconds: observation.milliseconds, value: longest), to: &longestGapSeries)
            }
        } else if observation.side == "publisher" {
            if let sent = observation.fields["bitrate"]?.number {
                Self.append(Sample(milliseconds: observation.milliseconds, value: sent), to: &sentRateSeries)
            }
            let drops = (observation.fields["droppedVideoPackets"]?.number ?? 0) + (observation.fields["droppedAudioPackets"]?.number ?? 0)
            countedMetrics.congestionDrops = max(countedMetrics.congestionDrops, Int(clamping: Int64(drops)))
        }
    }

    /// The condition to poll from now on; a `… for W` window is remembered for the report.
    public mutating func begin(
        _ condition: ScenarioExpectation.Condition, within: Duration, at milliseconds: Int64
    ) -> ScenarioExpectation.Condition {
        let start = subscriberReading(at: milliseconds)
        guard let window = condition.window(from: start) else { return condition.anchored(in: self) }
        frozenWindows.append(FrozenWindow(start: start, startMilliseconds: milliseconds, length: within))
        if frozenWindows.count > Self.lineLimit { frozenWindows.removeFirst() }
        return window
    }

    /// The subscriber's figures as its latest `stats` event said them, and how many came before it.
    /// `milliseconds`: when the window starts (nil: at the latest subscriber `stats` event).
    func subscriberReading(at milliseconds: Int64?) -> ScenarioExpectation.SubscriberReading {
        ScenarioExpectation.SubscriberReading(
            milliseconds: milliseconds ?? gapSeries.last?.milliseconds ?? 0,
            frozenMilliseconds: Int64(frozenSeries.last?.value ?? 0),
            longestGapMilliseconds: Int64(longestGapSeries.last?.value ?? 0), statsSeen: subscriberStatsSeen)
    }

    private static func append(_ sample: Sample, to series: inout [Sample]) {
        series.append(sample)
        if series.count > sampleLimit { series.removeFirst(series.count - sampleLimit) }
    }

    /// The side's field from its latest `state` event, else its latest `stats` event.
    public func field(_ name: String, of side: String) -> ScenarioValue? {
        latestState[side]?[name] ?? latestStats[side]?[name]
    }

    /// Every field name the side has shown, for "unknown field" messages.
    func fieldNames(of side: String) -> [String] {
        Set((latestState[side] ?? [:]).keys).union((latestStats[side] ?? [:]).keys).sorted()
    }

    /// True once the side has printed both a `state` and a `stats` event: a field missing from both is a typo.
    func hasFullPicture(of side: String) -> Bool {
        latestState[side] != nil && latestStats[side] != nil
    }

    func lines(of side: String, _ kind: Line.Kind, since milliseconds: Int64) -> [Line] {
        lines.filter { $0.side == side && $0.kind == kind && $0.milliseconds >= milliseconds }
    }

    /// Going live again after an interruption is timed from the last key pressed while not live (or, with
    /// no key, from the moment it stopped being live: an automatic reconnect).
    private mutating func publisherStatusChanged(_ status: PublisherStatus, at now: Int64) {
        guard status != publisherStatus else { return }
        publisherStatus = status
        if case .reconnecting(let attempt, _) = status {
            countedMetrics.publisherReconnectAttempts = max(countedMetrics.publisherReconnectAttempts, attempt)
        }
        if status.isLive {
            if wasLive, let since = notLiveSince {
                let press = presses.last { $0.milliseconds >= since }
                countedMetrics.backToPublishing.append(ScenarioMetrics.BackToPublishing(
                    trigger: press?.typed ?? "reconnect",
                    duration: .milliseconds(now - (press?.milliseconds ?? since))
                ))
            }
            wasLive = true
            notLiveSince = nil
        } else if notLiveSince == nil {
            notLiveSince = now
        }
    }
}
