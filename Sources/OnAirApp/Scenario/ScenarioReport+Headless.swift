import OnAirControl
import OnAirScenario

extension ScenarioReport.Row {
    /// The `scenario` event's details at the end of a scenario (README, "Headless output").
    func headlessDetails(file: String) -> [String: JSONValue] {
        var details: [String: JSONValue] = [
            "file": .string(file), "title": .string(scenario), "policy": .string(policy.rawValue), "abr": .string(abr.rawValue),
        ]
        switch outcome {
        case .passed: details["result"] = "passed"
        case .failed(let reason): details["result"] = "failed"; details["reason"] = .string(reason)
        case .skipped(let reason): details["result"] = "skipped"; details["reason"] = .string(reason)
        }
        return details
    }

    /// The `report` event's details: the figures of the `--report` table, as numbers.
    var headlessReport: [String: JSONValue] {
        var details: [String: JSONValue] = [
            "scenario": .string(scenario),
            "policy": .string(policy.rawValue),
            "abr": .string(abr.rawValue),
            "result": .string(outcome.label),
            "backToPublishing": .array(metrics.backToPublishing.map {
                .object(["trigger": .string($0.trigger), "ms": .integer($0.duration.milliseconds)])
            }),
            "publisherReconnectAttempts": .integer(Int64(metrics.publisherReconnectAttempts)),
            "subscriberReconnectAttempts": .integer(Int64(metrics.subscriberReconnectAttempts)),
            "recordings": .array(recordings.map {
                .object(["name": .string($0.name), "durationMs": .integer($0.duration.milliseconds), "frames": .integer(Int64($0.tags))])
            }),
        ]
        details["longestVideoGapMs"] = metrics.longestVideoGap.map { .integer($0.milliseconds) } ?? .null
        details["congestionDrops"] = .integer(Int64(metrics.congestionDrops))
        details["longestGapAfterConvergingMs"] = metrics.longestGapAfterConverging.map { .integer($0.milliseconds) } ?? .null
        details["frozenAfterConvergingMs"] = metrics.frozenAfterConverging.map { .integer($0.milliseconds) } ?? .null
        details["underCap"] = .array(metrics.capConvergence.map {
            .object(["cap": .integer(Int64($0.capBitsPerSecond)), "ms": $0.duration.map { .integer($0.milliseconds) } ?? .null])
        })
        return details
    }
}
