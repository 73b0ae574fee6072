/// One `expect` line: a condition on what the publisher, the subscriber or the recording shows, and how
/// long to wait for it.
public struct ScenarioExpectation: Sendable, Equatable {
    /// The side an expectation looks at.
    public enum Side: String, Sendable, Equatable, CaseIterable {
        case publisher
        case subscriber
    }

    /// How a field compares with the expected value.
    public enum Comparison: Sendable, Equatable {
        /// `is VALUE`: the field's text equals VALUE, ignoring case.
        case equals(String)
        case above(Double)
        case below(Double)
        /// `increases`: the number grows past what it was when the expectation started.
        case increases
    }

    /// What a recording must look like.
    public enum RecordingCheck: Sendable, Equatable {
        /// `lasts 8s ± 0.5s`: from the first to the last tag.
        case lasts(Duration, tolerance: Duration)
        /// `continuous`: timestamps never go back and never jump by more than ``ScenarioExpectation/continuityJump``.
        case continuous
    }

    public enum Condition: Sendable, Equatable {
        /// `expect SIDE toast "TEXT"`: the side showed the toast since the last `press`.
        case toast(Side, String)
        /// `expect no SIDE toast "TEXT" within D`: the toast did not appear in the next D.
        case noToast(Side, String)
        /// `expect no SIDE log "TEXT" within D`: no event-log line containing TEXT in the next D (e.g. no
        /// "media resumed" — the subscriber taking live media — while the publisher's link is down).
        case noLog(Side, String)
        /// `expect SIDE log "TEXT"`: an event-log line containing TEXT since the last `press`.
        case log(Side, String)
        /// `expect SIDE FIELD is VALUE | above N | below N | increases`: a field of the side's latest `state` or `stats` event.
        case field(Side, String, Comparison)
        /// `expect subscriber gap below D`: the longest time without video, so far.
        case videoGap(below: Duration)
        /// `expect subscriber shows video captured after the last press`: the newest picture the subscriber
        /// decoded carries a capture instant (its frame marker) later than the last `press`.
        case videoCapturedAfterLastPress
        /// `expect subscriber frozen below D for W`: during the next W (the expectation's `within`), the
        /// subscriber's own frozen time (`frozenMs`, read from the frame markers of what it decoded) grows by
        /// less than D. `since` is the reading it counts from, fixed when the expectation starts (nil: from 0).
        case frozen(below: Duration, since: SubscriberReading?)
        /// `expect subscriber gap below D for W`: during the next W, the subscriber never went D without a
        /// video frame (its `videoGapMs`, and `longestVideoGapMs` when it grows, seen once a second).
        case gapDuring(below: Duration, since: SubscriberReading?)
        /// `expect subscriber fps above N for W`: every subscriber `stats` event during the next W says it
        /// decoded more than N frames in its second. A picture that stutters — video dropped to the next
        /// keyframe again and again, each gap short — is frozen most of the time without one long gap.
        case framesPerSecondDuring(above: Double, since: SubscriberReading?)
        /// `expect recording [NAME] lasts …|continuous`: the relay's recording of NAME (the demo's stream by default).
        case recording(name: String?, RecordingCheck)
    }

    /// Where a subscriber window starts: the session time, the subscriber's `frozenMs` and
    /// `longestVideoGapMs` as its latest `stats` event carried them, and how many `stats` events came before.
    public struct SubscriberReading: Sendable, Equatable {
        public var milliseconds: Int64
        public var frozenMilliseconds: Int64
        public var longestGapMilliseconds: Int64
        public var statsSeen: Int

        public init(milliseconds: Int64 = 0, frozenMilliseconds: Int64, longestGapMilliseconds: Int64 = 0, statsSeen: Int) {
            self.milliseconds = milliseconds
            self.frozenMilliseconds = frozenMilliseconds
            self.longestGapMilliseconds = longestGapMilliseconds
            self.statsSeen = statsSeen
        }
    }

    /// Timestamps further apart than this break a recording's continuity: a resumed (`append`) recording
    /// carries on from its last tag, so only a missing `append` makes such a jump.
    public static let continuityJump: Duration = .seconds(1)
    /// How long an expectation waits for its condition when the line has no `within`.
    public static let defaultWithin: Duration = .seconds(5)

    public var line: Int
    public var condition: Condition
    /// How long the condition may take to hold (for `expect no`: how long it must keep holding).
    public var within: Duration
    /// The line as written, for messages.
    public var text: String

    /// True when the expectation must keep holding for all of `within` (`expect no … toast|log`, `frozen below`),
    /// rather than hold once within it.
    public var waitsOut: Bool {
        switch condition {
        case .noToast, .noLog, .frozen, .gapDuring, .framesPerSecondDuring: true
        default: false
        }
    }

    public init(line: Int, condition: Condition, within: Duration = ScenarioExpectation.defaultWithin, text: String) {
        self.line = line
        self.condition = condition
        self.within = within
        self.text = text
    }
}
