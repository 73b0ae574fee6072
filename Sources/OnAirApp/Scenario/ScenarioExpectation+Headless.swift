import OnAirControl
import OnAirScenario

extension ScenarioExpectation {
    /// The `expectation` event's details (README, "Headless output").
    func headlessDetails(_ verdict: ScenarioVerdict, after elapsed: Duration) -> [String: JSONValue] {
        var details: [String: JSONValue] = [
            "line": .integer(Int64(line)), "expect": .string(text), "afterMs": .integer(elapsed.milliseconds),
        ]
        switch verdict {
        case .met:
            details["met"] = true
        case .unmet(let seen), .broken(let seen):
            details["met"] = false
            details["seen"] = .string(seen)
        }
        return details
    }
}
