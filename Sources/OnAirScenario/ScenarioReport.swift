import OnAirCore

/// `--report`: one row per scenario run, so the policies' handling of the same interruption can be read
/// side by side — how long the subscriber went without video, how long from the operator's key to
/// publishing again, how many reconnects, and what the recordings hold.
public struct ScenarioReport: Sendable, Equatable {
    public enum Outcome: Sendable, Equatable {
        case passed
        case failed(String)
        /// Not run: the server lacks what the scenario needs (a relay that drops `send()` notices).
        case skipped(String)

        var label: String {
            switch self {
            case .passed: "passed"
            case .failed: "FAILED"
            case .skipped: "skipped"
            }
        }
    }

    public struct Row: Sendable, Equatable {
        public var scenario: String
        public var policy: PublisherPolicyKind
        public var outcome: Outcome
        public var metrics: ScenarioMetrics
        public var recordings: [RecordingSummary]

        public init(scenario: String, policy: PublisherPolicyKind, outcome: Outcome, metrics: ScenarioMetrics, recordings: [RecordingSummary]) {
            self.scenario = scenario
            self.policy = policy
            self.outcome = outcome
            self.metrics = metrics
            self.recordings = recordings
        }

        /// The cells of this row, in ``ScenarioReport/headers`` order.
        public var cells: [String] {
            [
                scenario,
                policy.rawValue,
                metrics.longestVideoGap?.secondsText ?? "-",
                metrics.backToPublishing.isEmpty ? "-"
                    : metrics.backToPublishing.map { "\($0.trigger) \($0.duration.secondsText)" }.joined(separator: ", "),
                "\(metrics.publisherReconnectAttempts)/\(metrics.subscriberReconnectAttempts)",
                recordings.isEmpty ? "-" : recordings.map { "\($0.name).flv \($0.duration.secondsText)" }.joined(separator: ", "),
                outcome.label,
            ]
        }
    }

    public static let headers = [
        "scenario", "policy", "longest video gap", "key → publishing", "reconnects pub/sub", "recordings", "result",
    ]

    public var rows: [Row] = []

    public init(rows: [Row] = []) {
        self.rows = rows
    }

    /// The table as text, columns padded to their widest cell.
    public var table: String {
        let all = [Self.headers] + rows.map(\.cells)
        let widths = Self.headers.indices.map { column in all.map { $0[column].count }.max() ?? 0 }
        func line(_ cells: [String]) -> String {
            zip(cells, widths).map { $0 + String(repeating: " ", count: $1 - $0.count) }.joined(separator: "  ")
                .trimmingBlanksAtEnd
        }
        let rule = widths.map { String(repeating: "-", count: $0) }.joined(separator: "  ")
        return ([line(Self.headers), rule] + rows.map { line($0.cells) }).joined(separator: "\n")
    }
}

extension String {
    var trimmingBlanksAtEnd: String {
        var text = self
        while text.last == " " { text.removeLast() }
        return text
    }
}
