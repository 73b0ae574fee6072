import OnAirControl
import OnAirScenario
import Synchronization

/// The timeline of one scenario run, fed from the loop's thread (every headless event, as printed) and
/// read by the ``ScenarioDriver``'s task.
final class ScenarioObserver: Sendable {
    private let timeline = Mutex(ScenarioTimeline())

    func observe(_ event: HeadlessEvent) {
        let observation = ScenarioObservation(
            milliseconds: event.time, side: event.side.rawValue, kind: event.kind,
            fields: event.details.compactMapValues(\.scenarioValue)
        )
        timeline.withLock { $0.record(observation) }
    }

    func recordPress(_ command: String, line: Int, at time: Int64) {
        timeline.withLock { $0.recordPress(command, line: line, at: time) }
    }

    func verdict(for condition: ScenarioExpectation.Condition, recording: RecordingSummary?) -> ScenarioVerdict {
        timeline.withLock { $0.verdict(for: condition, recording: recording) }
    }

    /// The condition to poll for `expectation`, which starts at session time `milliseconds`.
    func begin(_ expectation: ScenarioExpectation, at milliseconds: Int64) -> ScenarioExpectation.Condition {
        timeline.withLock { $0.begin(expectation.condition, within: expectation.within, at: milliseconds) }
    }

    var metrics: ScenarioMetrics {
        timeline.withLock { $0.metrics }
    }
}

extension JSONValue {
    /// The value as expectations compare it; arrays, objects and null are not compared.
    var scenarioValue: ScenarioValue? {
        switch self {
        case .string(let text): .text(text)
        case .integer(let number): .number(Double(number))
        case .number(let number): .number(number)
        case .bool(let flag): .flag(flag)
        case .array, .object, .null: nil
        }
    }
}
