import OnAirCore
@testable import OnAirScenario
import Testing

/// Issue 29 item 7: a scenario's waits add up to at most `maximumTotalWait`, and a line's length is
/// counted in scalars (100 000 combining marks are one Character but not one character of budget).
@Suite("Scenario bounds")
struct ScenarioBoundsTests {
    @Test("5000 × wait 60m is refused at the step that passes the total")
    func totalWait() {
        let text = "scenario long\n" + String(repeating: "wait 60m\n", count: 5000)
        do {
            _ = try ScenarioParser.parse(text, source: "long.scenario")
            Issue.record("208 days of waits were accepted")
        } catch {
            #expect(error.description.contains("waits add up to more than 6 hours"), "\(error)")
            #expect(error.line == 8, "refused at line \(error.line)")
        }
        #expect((try? ScenarioParser.parse("scenario fine\n" + String(repeating: "wait 60m\n", count: 6), source: "ok.scenario")) != nil)
    }

    @Test("100 000 combining marks on one line are refused with a short message")
    func combiningMarks() {
        let text = "scenario a" + String(repeating: "\u{301}", count: 100_000) + "\nwait 1s\n"
        do {
            _ = try ScenarioParser.parse(text, source: "marks.scenario")
            Issue.record("a 200 KB line was accepted")
        } catch {
            #expect(error.description.contains("line longer than"))
            #expect(error.description.utf8.count < 200, "the error is \(error.description.utf8.count) bytes")
        }
    }
}
