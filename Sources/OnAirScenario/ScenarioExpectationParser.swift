/// Reads the words after `expect` (README, "Scenario files"):
///
///     expect [no] publisher|subscriber toast "TEXT" [within D]
///     expect [no] publisher|subscriber log "TEXT" [within D]
///     expect publisher|subscriber FIELD is VALUE | above N | below N | increases [within D]
///     expect subscriber gap below D
///     expect subscriber frozen below D for D
///     expect subscriber gap below D for D
///     expect subscriber fps above N for D
///     expect subscriber shows video captured after the last press [within D]
///     expect recording [NAME] lasts D ± D | continuous [within D]
enum ScenarioExpectationParser {
    typealias Token = ScenarioLineTokenizer.Token
    typealias Failure = ScenarioParser.Failure

    static let forms = "expect [no] SIDE toast \"TEXT\", expect [no] SIDE log \"TEXT\", expect SIDE FIELD is|above|below VALUE or increases, " +
        "expect subscriber gap below D, expect subscriber frozen|gap below D for D, expect subscriber fps above N for D, expect subscriber shows video captured after the last press, expect recording [NAME] lasts D ± D | continuous — each may end in `within D`"

    static func parse(_ tokens: [Token], line: Int, text: String) throws(Failure) -> ScenarioExpectation {
        var words = tokens
        var within: Duration?
        if words.count >= 2, !words[words.count - 2].quoted, words[words.count - 2].text.lowercased() == "within" {
            within = try ScenarioParser.duration(words[words.count - 1].text)
            words.removeLast(2)
        } else if let last = words.last, !last.quoted, last.text.lowercased() == "within" {
            throw Failure(message: "`within` needs a duration, e.g. within 2s")
        }
        var negated = false
        if let first = words.first, !first.quoted, first.text.lowercased() == "no" {
            negated = true
            words.removeFirst()
        }
        guard let subject = words.first, !subject.quoted else { throw Failure(message: "`expect` needs a subject; forms: \(forms)") }
        let rest = Array(words.dropFirst())
        let condition: ScenarioExpectation.Condition
        switch subject.text.lowercased() {
        case "recording":
            guard !negated else { throw Failure(message: "`expect no` applies to toasts and logs only") }
            condition = try recording(rest)
        case let name:
            guard let side = ScenarioExpectation.Side(rawValue: name) else {
                throw Failure(message: "unknown subject '\(subject.text)'; use publisher, subscriber or recording")
            }
            condition = try sideCondition(side, rest, negated: negated)
        }
        switch condition {
        case .noToast, .noLog:
            guard within != nil else { throw Failure(message: "`expect no … toast|log` needs `within D`: how long it must stay away") }
        default:
            break
        }
        switch condition {
        case .frozen, .gapDuring, .framesPerSecondDuring:
            guard within == nil else { throw Failure(message: Self.windowForms) }
            within = try ScenarioParser.duration(rest[rest.count - 1].text)
        default:
            break
        }
        return ScenarioExpectation(line: line, condition: condition, within: within ?? ScenarioExpectation.defaultWithin, text: text)
    }

    private static func sideCondition(_ side: ScenarioExpectation.Side, _ words: [Token], negated: Bool) throws(Failure) -> ScenarioExpectation.Condition {
        guard let what = words.first, !what.quoted else {
            throw Failure(message: "say what the \(side.rawValue) shows: toast, log, gap or a field; forms: \(forms)")
        }
        let keyword = what.text.lowercased()
        let rest = Array(words.dropFirst())
        if negated && keyword != "toast" && keyword != "log" { throw Failure(message: "`expect no` applies to toasts and logs only") }
        switch keyword {
        case "toast", "log":
            guard rest.count == 1 else { throw Failure(message: "`\(keyword)` takes one quoted text, e.g. \(keyword) \"Publish Background\"") }
            let text = rest[0].text
            guard !text.isEmpty else { throw Failure(message: "the \(keyword) text is empty") }
            if keyword == "log" { return negated ? .noLog(side, text) : .log(side, text) }
            return negated ? .noToast(side, text) : .toast(side, text)
        case "shows":
            let phrase = rest.map { $0.text.lowercased() }.joined(separator: " ")
            guard side == .subscriber, phrase == "video captured after the last press" else {
                throw Failure(message: "write `expect subscriber shows video captured after the last press within D`")
            }
            return .videoCapturedAfterLastPress
        case "frozen":
            guard side == .subscriber, rest.count == 4, rest[0].text.lowercased() == "below", rest[2].text.lowercased() == "for" else {
                throw Failure(message: windowForms)
            }
            return .frozen(below: try ScenarioParser.duration(rest[1].text), since: nil)
        case "gap" where rest.count == 4 && rest[2].text.lowercased() == "for":
            guard side == .subscriber, rest[0].text.lowercased() == "below" else { throw Failure(message: windowForms) }
            return .gapDuring(below: try ScenarioParser.duration(rest[1].text), since: nil)
        case "fps" where rest.count == 4 && rest[2].text.lowercased() == "for":
            guard side == .subscriber, rest[0].text.lowercased() == "above", let rate = Double(rest[1].text), rate.isFinite, rate >= 0 else {
                throw Failure(message: windowForms)
            }
            return .framesPerSecondDuring(above: rate, since: nil)
        case "gap":
            guard side == .subscriber, rest.count == 2, rest[0].text.lowercased() == "below" else {
                throw Failure(message: "write `expect subscriber gap below D`: the longest time the subscriber went without video")
            }
            return .videoGap(below: try ScenarioParser.duration(rest[1].text))
        default:
            let field = fieldName(what.text, side: side)
            guard field.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) }) else {
                throw Failure(message: "'\(what.text)' is not a field name (letters and digits, e.g. status, renderActive)")
            }
            // Misspelt: a usage error now (exit 2), not a failure after the broadcast has played.
            guard ScenarioFields.names(of: side).contains(field) else {
                throw Failure(message: "unknown \(side.rawValue) field '\(what.text)'; the fields are \(ScenarioFields.names(of: side).sorted().joined(separator: ", "))")
            }
            return .field(side, field, try comparison(rest, field: field))
        }
    }

    static let windowForms = "write `expect subscriber frozen below D for W` (the picture freezes less than D in all during the next W) " +
        "or `expect subscriber gap below D for W` (never D without video during the next W) " +
        "or `expect subscriber fps above N for W` (more than N frames decoded in every second of the next W)"

    /// `state` is the badge on the dashboard: the publisher's `status`, the subscriber's `connection`.
    private static func fieldName(_ word: String, side: ScenarioExpectation.Side) -> String {
        guard word.lowercased() == "state" else { return word }
        return side == .publisher ? "status" : "connection"
    }

    private static func comparison(_ words: [Token], field: String) throws(Failure) -> ScenarioExpectation.Comparison {
        guard let verb = words.first, !verb.quoted else {
            throw Failure(message: "say how \(field) compares: `\(field) is VALUE`, `\(field) above N`, `\(field) below N` or `\(field) increases`")
        }
        if verb.text.lowercased() == "increases" {
            guard words.count == 1 else { throw Failure(message: "`increases` takes no value") }
            return .increases
        }
        guard words.count >= 2 else { throw Failure(message: "`\(verb.text)` needs a value, e.g. \(field) \(verb.text) 0") }
        let values = words.dropFirst()
        switch verb.text.lowercased() {
        case "is":
            return .equals(values.map(\.text).joined(separator: " "))
        case "above", "below":
            guard values.count == 1, let number = Double(values[values.startIndex].text), number.isFinite else {
                throw Failure(message: "`\(verb.text)` takes one number, e.g. \(field) \(verb.text) 0")
            }
            return verb.text.lowercased() == "above" ? .above(number) : .below(number)
        default:
            throw Failure(message: "unknown comparison '\(verb.text)'; use is, above, below or increases")
        }
    }

    private static func recording(_ words: [Token]) throws(Failure) -> ScenarioExpectation.Condition {
        var words = words
        var name: String?
        if let first = words.first, first.quoted || !["lasts", "continuous"].contains(first.text.lowercased()) {
            name = first.text
            words.removeFirst()
            guard isStreamName(first.text) else {
                throw Failure(message: "'\(first.text)' is not a stream name (letters, digits, '-', '_', '.', at most 128)")
            }
        }
        guard let verb = words.first?.text.lowercased() else {
            throw Failure(message: "say what the recording shows: `lasts D ± D` or `continuous`")
        }
        switch verb {
        case "continuous" where words.count == 1:
            return .recording(name: name, .continuous)
        case "lasts" where words.count == 4 && ["±", "+-", "+/-"].contains(words[2].text):
            let length = try ScenarioParser.duration(words[1].text)
            let tolerance = try ScenarioParser.duration(words[3].text)
            return .recording(name: name, .lasts(length, tolerance: tolerance))
        default:
            throw Failure(message: "write `expect recording lasts 8s ± 0.5s` or `expect recording continuous`")
        }
    }

    /// The relay's rule for stream names, so a scenario can never point outside the record directory.
    static func isStreamName(_ name: String) -> Bool {
        !name.isEmpty && name.count <= 128 && name != "." && name != ".."
            && name.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "-_.".contains($0)) }
    }
}
