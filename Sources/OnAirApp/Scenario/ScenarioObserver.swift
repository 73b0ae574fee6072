import OnAirControl
import OnAirCore
import OnAirScenario
import Synchronization

/// The timeline of one scenario run, fed from the loop's thread (every event, as printed) and read by the
/// ``ScenarioDriver``'s task.
final class ScenarioObserver: Sendable {
    private let timeline = Mutex(ScenarioTimeline())

    func observe(_ event: OnAirEvent) {
        guard let what = Self.observation(event.kind) else { return }
        let observation = ScenarioObservation(milliseconds: event.time.milliseconds, side: event.side.rawValue, what)
        timeline.withLock { $0.record(observation) }
    }

    /// What the timeline keeps of an event, by its type: toasts, log lines and notices, `state` and `stats`
    /// fields, the subscriber's plays; nothing of the rest.
    static func observation(_ kind: OnAirEvent.Kind) -> ScenarioObservation.What? {
        switch kind {
        case .log(_, let text), .notice(let text): .log(text)
        case .toast(let text): .toast(text)
        case .state(let fields): .state(fields.compactMapValues(\.scenarioValue))
        case .stats(let fields): .stats(fields.compactMapValues(\.scenarioValue))
        case .subscriberPlays(let plays): .subscriberPlays(plays)
        case .publisherStatus(let status): .publisherStatus(status)
        case .reported(kind: "output", let details): outputLog(details)
        case .reported(kind: "device", let details): device(details)
        case .warning, .refused, .link, .started, .quit, .stopped, .reported: nil
        }
    }

    /// An `output` event (outputs 2…N, issue 30) as a line of the publisher's log, so `expect publisher log`
    /// can name one output: `output 2 STALLED: send stalled: …`.
    static func outputLog(_ details: [String: JSONValue]) -> ScenarioObservation.What? {
        guard case .integer(let index)? = details["output"], case .string(let text)? = details["text"] else { return nil }
        let state = if case .string(let state)? = details["state"] { state } else { "" }
        return .log("output \(index) \(state): \(text)")
    }

    /// A `device` event that lost a device or brought it back (not `commanded`, not `retrying`: the device
    /// stays lost through those).
    static func device(_ details: [String: JSONValue]) -> ScenarioObservation.What? {
        guard case .string(let name)? = details["device"], case .string(let state)? = details["state"] else { return nil }
        switch state {
        case "lost": return .device(name, available: false)
        case "back": return .device(name, available: true)
        default: return nil
        }
    }

    func recordPress(_ command: OperatorCommand, typed: String, line: Int, at time: Int64) {
        timeline.withLock { $0.recordPress(command, typed: typed, line: line, at: time) }
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
