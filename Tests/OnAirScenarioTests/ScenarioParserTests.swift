import Foundation
import OnAirCore
import OnAirScenario
import Testing

/// The scenario format (README, "Scenario files") as written, and every way a line can be refused.
@Suite("scenario parser")
struct ScenarioParserTests {
    static let shippedDirectory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Scenarios")

    static var shippedFiles: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: shippedDirectory.path)) ?? [])
            .filter { $0.hasSuffix(".scenario") }.sorted()
    }

    /// The parse-time field check must never refuse a field the events carry: the list is the schema's.
    @Test("the fields a scenario may name are exactly the state and stats fields of the event schema")
    func fieldsAreTheSchemas() throws {
        let schema = Self.shippedDirectory.deletingLastPathComponent().appendingPathComponent("docs/headless-events.schema.json")
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: schema)) as? [String: Any]
        let rules = json?["allOf"] as? [[String: Any]] ?? []
        func fields(_ index: Int) -> Set<String> {
            guard index < rules.count, let then = rules[index]["then"] as? [String: Any],
                  let details = (then["properties"] as? [String: Any])?["details"] as? [String: Any],
                  let properties = details["properties"] as? [String: Any] else { return [] }
            return Set(properties.keys)
        }
        #expect(ScenarioFields.publisher == fields(2).union(fields(4)))
        #expect(ScenarioFields.subscriber == fields(3).union(fields(5)))
    }

    @Test("every shipped scenario parses, has a title, a step and an expectation")
    func shippedScenariosParse() throws {
        #expect(Self.shippedFiles.count >= 9, "Scenarios/ holds \(Self.shippedFiles)")
        for name in Self.shippedFiles {
            let path = Self.shippedDirectory.appendingPathComponent(name).path
            let scenario = try ScenarioParser.parse(String(contentsOfFile: path, encoding: .utf8), source: path)
            #expect(!scenario.title.hasSuffix(".scenario"), "\(name) has no `scenario` title line")
            #expect(!scenario.expectations.isEmpty, "\(name) checks nothing")
        }
    }

    @Test("settings, steps and every expectation form")
    func everyForm() throws {
        let text = """
            # a comment
            scenario Blog 2: decline resumes   # trailing comment
            policy resume-append
            type record
            requires notices
            requires recording
            suspend-timeout 4s
            reconnect-delay 1.5s
            stall-timeout 500ms

            wait 2s
            press call
            press sub home
            expect subscriber toast "Publish Background" within 2s
            expect no publisher toast 'Tap to Re-Publish!' within 1s
            expect publisher log "UnpublishNotify"
            expect publisher state is "AWAITING TAP" within 3s
            expect publisher status is PAUSED VIDEO
            expect subscriber state is PLAYING
            expect subscriber framesDecoded above 10
            expect subscriber fps below 31.5
            expect subscriber framesDecoded increases within 3s
            expect subscriber gap below 3s
            expect recording lasts 8s ± 0.5s within 2s
            expect recording other-name lasts 8s +- 500ms
            expect recording continuous
            """
        let scenario = try ScenarioParser.parse(text, source: "x.scenario")
        #expect(scenario.title == "Blog 2: decline resumes")
        #expect(scenario.settings.policy == .resumeAppend)
        #expect(scenario.settings.publishType == .record)
        #expect(scenario.settings.requirements == [.notices, .recording])
        #expect(scenario.settings.suspendTimeout == .seconds(4))
        #expect(scenario.settings.reconnectDelay == .milliseconds(1500))
        #expect(scenario.settings.stallTimeout == .milliseconds(500))
        #expect(scenario.steps.map(\.line) == Array(11...26))
        #expect(scenario.steps[0].action == .wait(.seconds(2)))
        #expect(scenario.steps[1].action == .press(.phone(.incomingCall), typed: "call"))
        #expect(scenario.steps[2].action == .press(.subscriberPhone(.home), typed: "sub home"))
        let conditions = scenario.expectations.map(\.condition)
        #expect(conditions == [
            .toast(.subscriber, "Publish Background"),
            .noToast(.publisher, "Tap to Re-Publish!"),
            .log(.publisher, "UnpublishNotify"),
            .field(.publisher, "status", .equals("AWAITING TAP")),
            .field(.publisher, "status", .equals("PAUSED VIDEO")),
            .field(.subscriber, "connection", .equals("PLAYING")),
            .field(.subscriber, "framesDecoded", .above(10)),
            .field(.subscriber, "fps", .below(31.5)),
            .field(.subscriber, "framesDecoded", .increases),
            .videoGap(below: .seconds(3)),
            .recording(name: nil, .lasts(.seconds(8), tolerance: .milliseconds(500))),
            .recording(name: "other-name", .lasts(.seconds(8), tolerance: .milliseconds(500))),
            .recording(name: nil, .continuous),
        ])
        #expect(scenario.expectations.map(\.within) == [
            .seconds(2), .seconds(1), .seconds(5), .seconds(3), .seconds(5), .seconds(5), .seconds(5), .seconds(5),
            .seconds(3), .seconds(5), .seconds(2), .seconds(5), .seconds(5),
        ])
        #expect(scenario.expectations[0].text == "expect subscriber toast \"Publish Background\" within 2s")
    }

    struct Refusal: Sendable, CustomStringConvertible {
        var text: String
        var line: Int
        var message: String
        var description: String { "\(text.prefix(40)) → line \(line): \(message)" }
    }

    static let refusals: [Refusal] = [
        Refusal(text: "wait 2s\nfrobnicate", line: 2, message: "unknown statement 'frobnicate'"),
        Refusal(text: "wait 2s\npolicy tap-republish", line: 2, message: "must come before the first step"),
        Refusal(text: "policy sometimes\nwait 1s", line: 1, message: "unknown policy 'sometimes'; policies: tap-republish, resume-append, background-audio"),
        Refusal(text: "type forever\nwait 1s", line: 1, message: "unknown publish type"),
        Refusal(text: "requires magic\nwait 1s", line: 1, message: "unknown requirement 'magic'"),
        Refusal(text: "suspend-timeout soon\nwait 1s", line: 1, message: "'soon' is not a duration"),
        Refusal(text: "scenario\nwait 1s", line: 1, message: "`scenario` needs a title"),
        Refusal(text: "wait", line: 1, message: "`wait` takes one duration"),
        Refusal(text: "wait 2", line: 1, message: "'2' is not a duration"),
        Refusal(text: "wait -2s", line: 1, message: "'-2s' is not a duration"),
        Refusal(text: "wait 2h", line: 1, message: "is not a duration"),
        Refusal(text: "wait 61m", line: 1, message: "is not a duration"),
        Refusal(text: "wait nans", line: 1, message: "is not a duration"),
        Refusal(text: "press", line: 1, message: "`press` takes a command"),
        Refusal(text: "expect", line: 1, message: "`expect` needs a subject"),
        Refusal(text: "expect everyone toast \"x\"", line: 1, message: "unknown subject 'everyone'"),
        Refusal(text: "expect subscriber toast", line: 1, message: "`toast` takes one quoted text"),
        Refusal(text: "expect subscriber toast \"\"", line: 1, message: "the toast text is empty"),
        Refusal(text: "expect subscriber toast \"x", line: 1, message: "a quoted text is not closed"),
        Refusal(text: "expect no subscriber toast \"x\"", line: 1, message: "needs `within D`"),
        Refusal(text: "expect no subscriber state is PLAYING within 2s", line: 1, message: "`expect no` applies to toasts and logs only"),
        Refusal(text: "expect publisher gap below 2s", line: 1, message: "expect subscriber gap below D"),
        Refusal(text: "expect publisher status", line: 1, message: "say how status compares"),
        Refusal(text: "expect publisher status equals X", line: 1, message: "unknown comparison 'equals'"),
        Refusal(text: "expect publisher fps above many", line: 1, message: "`above` takes one number"),
        Refusal(text: "expect publisher ../x is 1", line: 1, message: "is not a field name"),
        Refusal(text: "expect publisher staus is PUBLISHING", line: 1, message: "unknown publisher field 'staus'; the fields are"),
        Refusal(text: "expect subscriber framesDecodid above 0", line: 1, message: "unknown subscriber field 'framesDecodid'"),
        Refusal(text: "expect recording", line: 1, message: "say what the recording shows"),
        Refusal(text: "expect recording lasts 8s", line: 1, message: "expect recording lasts 8s ± 0.5s"),
        Refusal(text: "expect recording ../../etc/passwd continuous", line: 1, message: "is not a stream name"),
        Refusal(text: "expect subscriber state is PLAYING within", line: 1, message: "`within` needs a duration"),
        Refusal(text: "expect subscriber state", line: 1, message: "say how connection compares"),
        Refusal(text: "\"quoted\" first", line: 1, message: "starts with a keyword"),
        Refusal(text: "wait 1s\r\nwait\u{7}2s", line: 2, message: "control character"),
        Refusal(text: "# only comments\n\n", line: 0, message: "has no steps"),
        Refusal(text: String(repeating: "x", count: 1001), line: 1, message: "line longer than 1000 characters"),
        Refusal(text: String(repeating: "wait 1s\n", count: 40_000), line: 0, message: "larger than 256 KiB"),
    ]

    @Test("refused with the line and what would be accepted", arguments: refusals)
    func refused(_ refusal: Refusal) {
        #expect {
            try ScenarioParser.parse(refusal.text, source: "bad.scenario")
        } throws: { error in
            guard let error = error as? ScenarioParseError else { return false }
            return error.line == refusal.line && error.message.contains(refusal.message) && error.source == "bad.scenario"
                && error.description.hasPrefix(refusal.line > 0 ? "bad.scenario:\(refusal.line): " : "bad.scenario: ")
        }
    }

    @Test("CRLF line ends, tabs and upper-case keywords are read as written on other machines")
    func lenientWhitespace() throws {
        let scenario = try ScenarioParser.parse("POLICY\tTap-Republish\r\n\tWAIT 1s\r\nPress CALL\r\n", source: "x")
        #expect(scenario.settings.policy == .tapRepublish)
        #expect(scenario.steps.map(\.action) == [.wait(.seconds(1)), .press(.phone(.incomingCall), typed: "call")])
    }

    @Test("too many steps are refused, not kept")
    func stepLimit() {
        let text = String(repeating: "wait 1ms\n", count: ScenarioParser.maximumSteps + 1)
        #expect(throws: ScenarioParseError.self) { try ScenarioParser.parse(text, source: "x") }
    }
}
