import OnAirCore

/// `--report`: one row per scenario run, so the policies' (and ABR modes') handling of the same interruption
/// can be read side by side — how long the subscriber went without video, how long from the operator's key
/// to publishing again, how many reconnects, and what the recordings hold; for network scenarios also how
/// long the publisher took to get under a link cap, how long the subscriber's picture froze after that, and
/// how many packets congestion dropped.
public struct ScenarioReport: Sendable, Equatable {
    public enum Outcome: Sendable, Equatable {
        case passed
        case failed(String)
        /// Not run: the server lacks what the scenario needs (a relay that drops `send()` notices).
        case skipped(String)

        public var label: String {
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
        /// The publisher's adaptive bitrate for this run (`abr` setting, `--abr`, `--compare-abr`).
        public var abr: AdaptiveBitrateConfiguration.Mode
        public var outcome: Outcome
        public var metrics: ScenarioMetrics
        public var recordings: [RecordingSummary]

        public init(
            scenario: String, policy: PublisherPolicyKind, abr: AdaptiveBitrateConfiguration.Mode = .off, outcome: Outcome,
            metrics: ScenarioMetrics, recordings: [RecordingSummary]
        ) {
            self.scenario = scenario
            self.policy = policy
            self.abr = abr
            self.outcome = outcome
            self.metrics = metrics
            self.recordings = recordings
        }

        /// The cells of this row, in ``ScenarioReport/headers`` order (with the network columns, in
        /// ``ScenarioReport/networkHeaders`` order after the reconnects).
        public func cells(network: Bool = false) -> [String] {
            let common = [
                scenario,
                policy.rawValue,
                abr.rawValue,
                metrics.longestVideoGap?.secondsText ?? "-",
                metrics.backToPublishing.isEmpty ? "-"
                    : metrics.backToPublishing.map { "\($0.trigger) \($0.duration.secondsText)" }.joined(separator: ", "),
                "\(metrics.publisherReconnectAttempts)/\(metrics.subscriberReconnectAttempts)",
            ]
            let networkCells = [
                metrics.capConvergence.isEmpty ? "-" : metrics.capConvergence.map {
                    "\(LinkCommand.rateText($0.capBitsPerSecond)) \($0.duration?.secondsText ?? "never")"
                }.joined(separator: ", "),
                metrics.longestGapAfterConverging?.secondsText ?? "-",
                metrics.frozenAfterConverging?.secondsText ?? "-",
                "\(metrics.congestionDrops)",
            ]
            return common + (network ? networkCells : []) + [
                recordings.isEmpty ? "-" : recordings.map { "\($0.name).flv \($0.duration.secondsText)" }.joined(separator: ", "),
                outcome.label,
            ]
        }

        /// True when the row has figures only a network scenario has: a cap, a frozen window, dropped packets.
        public var hasNetworkFigures: Bool {
            !metrics.capConvergence.isEmpty || metrics.frozenAfterConverging != nil || metrics.congestionDrops > 0 || abr != .off
        }
    }

    public static let headers = [
        "scenario", "policy", "abr", "longest video gap", "key → publishing", "reconnects pub/sub", "recordings", "result",
    ]
    /// After the reconnects, when some row ran a network scenario.
    public static let networkHeaders = ["under cap (≤90%)", "gap after converging", "frozen after converging", "congestion drops"]

    /// The columns of this report: the network ones only when a row has network figures.
    public var showsNetwork: Bool { rows.contains(where: \.hasNetworkFigures) }

    public var columnHeaders: [String] {
        showsNetwork ? Array(Self.headers[..<6]) + Self.networkHeaders + Self.headers[6...] : Self.headers
    }

    public var rows: [Row] = []

    public init(rows: [Row] = []) {
        self.rows = rows
    }

    /// What `--report` prints in `width` columns (80: the README's terminal): the table when it fits,
    /// otherwise one block per run — its title and result, then `header value` pairs wrapped between
    /// whole pairs, so no figure is cut or pushed off the edge.
    public func text(width: Int = 80) -> String {
        let aligned = table
        if aligned.split(separator: "\n").allSatisfy({ $0.count <= width }) { return aligned }
        let headers = columnHeaders
        var lines: [String] = []
        for row in rows {
            let cells = row.cells(network: showsNetwork)
            if !lines.isEmpty { lines.append("") }
            lines.append("\(cells[0]) — \(cells[cells.count - 1])")
            var current = ""
            for (header, cell) in zip(headers.dropFirst().dropLast(), cells.dropFirst().dropLast()) {
                let pair = "\(header) \(cell)"
                if current.isEmpty {
                    current = "  " + pair
                } else if current.count + 3 + pair.count <= width {
                    current += " · " + pair
                } else {
                    lines.append(current)
                    current = "  " + pair
                }
            }
            if !current.isEmpty { lines.append(current) }
        }
        return lines.joined(separator: "\n")
    }

    /// The table as text, columns padded to their widest cell.
    public var table: String {
        let headers = columnHeaders
        let all = [headers] + rows.map { $0.cells(network: showsNetwork) }
        let widths = headers.indices.map { column in all.map { $0[column].count }.max() ?? 0 }
        func line(_ cells: [String]) -> String {
            zip(cells, widths).map { $0 + String(repeating: " ", count: $1 - $0.count) }.joined(separator: "  ")
                .trimmingBlanksAtEnd
        }
        let rule = widths.map { String(repeating: "-", count: $0) }.joined(separator: "  ")
        return ([line(headers), rule] + all.dropFirst().map(line)).joined(separator: "\n")
    }
}

extension String {
    var trimmingBlanksAtEnd: String {
        var text = self
        while text.last == " " { text.removeLast() }
        return text
    }
}
