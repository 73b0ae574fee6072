import OnAirCore
@testable import OnAirScenario
import Testing

/// Issue 29 item 6: a scenario's title is shown in the report, the console and logs; no control character
/// from the file (C0, DEL, C1 with U+009B, the 8-bit CSI) reaches them raw.
@Suite("Scenario titles are escaped")
struct ScenarioTitleControlTests {
    /// C0 controls and DEL are refused by the parser as a whole line; C1 ones pass it and are escaped.
    @Test("C1 controls in a title are written as \\u{…}", arguments: ["\u{9B}2J", "\u{9D}0;pwned\u{9C}", "\u{85}x"])
    func titleEscaped(control: String) throws {
        let scenario = try ScenarioParser.parse("scenario Evil \(control) title\nwait 1s\n", source: "evil.scenario")
        #expect(!scenario.title.unicodeScalars.contains(where: ControlText.isControl), "\(scenario.title.debugDescription)")
        #expect(scenario.title.hasPrefix("Evil \\u{"))
    }

    @Test("ControlText escapes exactly C0, DEL and C1")
    func controlText() {
        #expect(ControlText.escaped("a\u{9B}b") == "a\\u{9b}b")
        #expect(ControlText.escaped("é ✓ ok") == "é ✓ ok")
        #expect(ControlText.escaped("\u{9F}\u{A0}") == "\\u{9f}\u{A0}")
    }
}
