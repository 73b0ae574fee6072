import OnAirCore

/// Where an expectation stands against what has been seen.
public enum ScenarioVerdict: Sendable, Equatable {
    case met
    /// Not (yet) met; `seen` says what was there instead, for the failure message.
    case unmet(seen: String)
    /// Can no longer be met, whatever comes: fail now (`expect no` saw its toast, a misspelt field).
    case broken(seen: String)
}

extension ScenarioTimeline {
    /// Evaluates `condition` against what has been seen; `recording` is the file `expect recording` names,
    /// read by the runner (nil when there is none yet).
    public func verdict(for condition: ScenarioExpectation.Condition, recording: RecordingSummary?) -> ScenarioVerdict {
        let since = lastPressTime
        switch condition {
        case .toast(let side, let text):
            let toasts = lines(of: side.rawValue, .toast, since: since)
            if toasts.contains(where: { $0.text.caseInsensitiveEquals(text) }) { return .met }
            return .unmet(seen: toasts.isEmpty ? "no \(side.rawValue) toast" : "toasts " + quoted(toasts.map(\.text)))
        case .noToast(let side, let text):
            if let toast = lines(of: side.rawValue, .toast, since: since).first(where: { $0.text.caseInsensitiveEquals(text) }) {
                return .broken(seen: "the \(side.rawValue) showed \"\(toast.text)\" at \(seconds(toast.milliseconds))")
            }
            return .met
        case .noLog(let side, let text):
            if let line = lines(of: side.rawValue, .log, since: since).first(where: { $0.text.lowercased().contains(text.lowercased()) }) {
                return .broken(seen: "the \(side.rawValue) logged \"\(line.text)\" at \(seconds(line.milliseconds))")
            }
            return .met
        case .log(let side, let text):
            let logged = lines(of: side.rawValue, .log, since: since)
            if logged.contains(where: { $0.text.lowercased().contains(text.lowercased()) }) { return .met }
            return .unmet(seen: logged.isEmpty ? "no \(side.rawValue) log line" : "log " + quoted(logged.suffix(4).map(\.text)))
        case .field(let side, let name, let comparison):
            return fieldVerdict(side: side.rawValue, name: name, comparison: comparison)
        case .videoGap(let limit):
            guard let gap = metrics.longestVideoGap else { return .unmet(seen: "no subscriber stats yet") }
            return gap < limit ? .met : .broken(seen: "a gap of \(gap.secondsText) without video")
        case .videoCapturedAfterLastPress:
            return capturedAfterPressVerdict(since: since)
        case .frozen(let limit, let reading):
            return frozenVerdict(below: limit, since: reading)
        case .gapDuring(let limit, let reading):
            return gapVerdict(below: limit, since: reading)
        case .framesPerSecondDuring(let limit, let reading):
            return framesPerSecondVerdict(above: limit, since: reading)
        case .recording(_, let check):
            guard let recording else { return .unmet(seen: "no recording file") }
            return recordingVerdict(recording, check)
        }
    }

    private func fieldVerdict(side: String, name: String, comparison: ScenarioExpectation.Comparison) -> ScenarioVerdict {
        guard let value = field(name, of: side) else {
            let seen = "no field \(name) (fields: \(fieldNames(of: side).joined(separator: ", ")))"
            return hasFullPicture(of: side) ? .broken(seen: seen) : .unmet(seen: seen)
        }
        let holds: Bool
        switch comparison {
        case .equals(let expected): holds = value.text.caseInsensitiveEquals(expected)
        case .above(let limit): holds = (value.number ?? -.infinity) > limit
        case .below(let limit): holds = (value.number ?? .infinity) < limit
        case .increases: return .unmet(seen: "\(side) \(name) is \(value.text); `increases` needs a baseline (see ScenarioTimeline.baseline)")
        }
        return holds ? .met : .unmet(seen: "\(side) \(name) is \(value.text)")
    }

    /// Read from the picture (the frame marker's capture instant, on the session clock), not from the
    /// connection state: a subscriber can be PLAYING a stream that carries nothing new.
    private func capturedAfterPressVerdict(since: Int64) -> ScenarioVerdict {
        guard let captured = latestStats["subscriber"]?["lastFrameCapturedAtMs"]?.number else {
            return .unmet(seen: "no subscriber picture with a readable frame marker yet")
        }
        if Int64(captured) > since { return .met }
        return .unmet(seen: "the subscriber's newest picture was captured at \(seconds(Int64(captured))), the last press was at \(seconds(since))")
    }

    private func recordingVerdict(_ recording: RecordingSummary, _ check: ScenarioExpectation.RecordingCheck) -> ScenarioVerdict {
        switch check {
        case .lasts(let length, let tolerance):
            let difference = recording.duration > length ? recording.duration - length : length - recording.duration
            return difference <= tolerance ? .met : .unmet(seen: "\(recording.name).flv lasts \(recording.duration.secondsText) (\(recording.tags) tags)")
        case .continuous:
            if recording.goesBackwards { return .unmet(seen: "\(recording.name).flv has timestamps that go backwards") }
            if recording.largestJump > ScenarioExpectation.continuityJump {
                return .unmet(seen: "\(recording.name).flv jumps \(recording.largestJump.secondsText) between two tags")
            }
            return recording.tags > 0 ? .met : .unmet(seen: "\(recording.name).flv has no tags")
        }
    }

    private func quoted(_ texts: [String]) -> String {
        texts.map { "\"\($0)\"" }.joined(separator: ", ")
    }

    private func seconds(_ milliseconds: Int64) -> String {
        Duration.milliseconds(milliseconds).secondsText
    }
}

extension Duration {
    /// `2.35s`: how durations read in scenario messages and the report.
    public var secondsText: String {
        let hundredths = (wholeMilliseconds + 5) / 10
        return "\(hundredths / 100).\(String(format2(hundredths % 100)))s"
    }
}

extension Duration {
    /// `3s`, `1.5s`, `250ms`: a duration as a scenario file writes it.
    public var scenarioText: String {
        let milliseconds = wholeMilliseconds
        if milliseconds % 1000 == 0 { return "\(milliseconds / 1000)s" }
        if milliseconds < 1000 { return "\(milliseconds)ms" }
        return "\(Double(milliseconds) / 1000)s"
    }
}

private func format2(_ value: Int64) -> String {
    value < 10 ? "0\(value)" : "\(value)"
}

extension String {
    func caseInsensitiveEquals(_ other: String) -> Bool {
        lowercased() == other.lowercased()
    }
}

extension ScenarioExpectation.Condition {
    /// The condition to poll, fixed when the expectation starts: `FIELD increases` becomes `FIELD above`
    /// the value the field has now (a field not seen yet must reach above zero), and
    /// `frozen below D for W` and `gap below D for W` count from the subscriber's figures now.
    public func anchored(in timeline: ScenarioTimeline) -> ScenarioExpectation.Condition {
        if case .field(let side, let name, .increases) = self {
            return .field(side, name, .above(timeline.field(name, of: side.rawValue)?.number ?? 0))
        }
        return window(from: timeline.subscriberReading(at: nil)) ?? self
    }

    /// A `… for W` window not yet started, counting from `reading`; nil for any other condition.
    func window(from reading: ScenarioExpectation.SubscriberReading) -> ScenarioExpectation.Condition? {
        switch self {
        case .frozen(let limit, nil): .frozen(below: limit, since: reading)
        case .gapDuring(let limit, nil): .gapDuring(below: limit, since: reading)
        case .framesPerSecondDuring(let limit, nil): .framesPerSecondDuring(above: limit, since: reading)
        default: nil
        }
    }
}
