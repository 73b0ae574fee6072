import OnAirCore
import OnAirScenario
import Testing

/// `expect subscriber shows video captured after the last press`: read from the picture's capture instant.
@Suite("fresh video after a press")
struct ScenarioFreshVideoTests {
    @Test("the expectation parses, with or without `within`, in any case")
    func parses() throws {
        let scenario = try ScenarioParser.parse(
            "press tap\nexpect subscriber shows video captured after the last press within 3s\nEXPECT Subscriber Shows Video Captured After The Last Press",
            source: "x.scenario")
        #expect(scenario.expectations.map(\.condition) == [.videoCapturedAfterLastPress, .videoCapturedAfterLastPress])
        #expect(scenario.expectations.map(\.within) == [.seconds(3), ScenarioExpectation.defaultWithin])
    }

    @Test("other wordings, and the publisher side, are refused with the form to write", arguments: [
        "expect publisher shows video captured after the last press",
        "expect subscriber shows video",
        "expect subscriber shows video captured after the first press",
    ])
    func refused(line: String) {
        #expect(throws: ScenarioParseError.self) { try ScenarioParser.parse(line, source: "x.scenario") }
    }

    @Test("it holds only once a picture captured after the last press was decoded, whatever the connection state says")
    func verdict() {
        var timeline = ScenarioTimeline()
        let condition = ScenarioExpectation.Condition.videoCapturedAfterLastPress
        #expect(timeline.verdict(for: condition, recording: nil) == .unmet(seen: "no subscriber picture with a readable frame marker yet"))
        timeline.record(ScenarioObservation(milliseconds: 3000, side: "subscriber", .state(["connection": .text("PLAYING")])))
        timeline.record(ScenarioObservation(milliseconds: 3000, side: "subscriber", .stats(["lastFrameCapturedAtMs": .number(2950)])))
        #expect(timeline.verdict(for: condition, recording: nil) == .met, "no press yet: any picture is after the start")
        timeline.recordPress(.phone(.tap), typed: "tap", line: 9, at: 4000)
        timeline.record(ScenarioObservation(milliseconds: 5000, side: "subscriber", .stats(["lastFrameCapturedAtMs": .number(2950)])))
        #expect(timeline.verdict(for: condition, recording: nil)
            == .unmet(seen: "the subscriber's newest picture was captured at 2.95s, the last press was at 4.00s"))
        timeline.record(ScenarioObservation(milliseconds: 6000, side: "subscriber", .stats(["lastFrameCapturedAtMs": .number(4033)])))
        #expect(timeline.verdict(for: condition, recording: nil) == .met)
    }
}
