import Foundation
import OnAirCore
import OnAirScenario
import Testing

/// Scenario files come from operators and CI: the parser must never trap, whatever the text. Thousands of
/// mutations of the shipped scenarios from a fixed seed (so a failure replays exactly); `make fuzz-scenarios`
/// runs libFuzzer on the same contract for longer.
@Suite("Scenario parser robustness")
struct ScenarioParserFuzzTests {
    static let seeds: [String] = ScenarioParserTests.shippedFiles.compactMap {
        try? String(contentsOfFile: ScenarioParserTests.shippedDirectory.appendingPathComponent($0).path, encoding: .utf8)
    }

    /// Pieces that steer mutations toward the grammar's edges.
    static let tokens = [
        "\"", "'", "#", "\n", "\r\n", "\r", " within ", "within", " ± ", "+-", "expect ", "no ", "recording ", "lasts ", "continuous",
        "increases", "above ", "below ", "is ", "9999999999999999999s", "1e308s", ".s", "0ms", "60m", "-1s", "nan", "\u{0}", "\t",
        "界", "\u{FEFF}", "press ", "wait ", "policy ", "requires ", "subscriber ", "publisher ", "gap ", "toast ", "log ", "..",
        "frozen below ", " for ", "link-cap ", "link-down", "handoff ", "sub ", "9999999999999G", "0.0001k", "abr ", "bitrate ", "size ",
        "4096x4096", "1x", "fps ",
    ]

    static func mutate(_ input: String, using rng: inout SplitMix64) -> String {
        var characters = Array(input)
        for _ in 0..<Int.random(in: 1...8, using: &rng) {
            let position = characters.isEmpty ? 0 : Int.random(in: 0..<characters.count, using: &rng)
            switch Int.random(in: 0..<5, using: &rng) {
            case 0 where !characters.isEmpty: characters.remove(at: position)
            case 1: characters.insert(Character(Unicode.Scalar(UInt8.random(in: 0...127, using: &rng))), at: position)
            case 2: characters.insert(contentsOf: tokens.randomElement(using: &rng)!, at: position)
            case 3 where !characters.isEmpty:
                let end = min(characters.count, position + Int.random(in: 1...40, using: &rng))
                characters.removeSubrange(position..<end)
            default:
                let donor = Array(seeds.randomElement(using: &rng) ?? "")
                guard !donor.isEmpty else { continue }
                let start = Int.random(in: 0..<donor.count, using: &rng)
                characters.insert(contentsOf: donor[start..<min(donor.count, start + 60)], at: position)
            }
        }
        return String(characters)
    }

    @Test("20 000 mutated scenarios: a scenario or a one-line error on a real line, never a trap")
    func mutations() {
        #expect(!Self.seeds.isEmpty)
        var rng = SplitMix64(state: 0x5CE7_A210)
        var parsed = 0
        var refused = 0
        for round in 0..<20_000 {
            let text = Self.mutate(Self.seeds[round % Self.seeds.count], using: &rng)
            let lines = text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" }).count
            do {
                let scenario = try ScenarioParser.parse(text, source: "fuzz")
                let timeline = ScenarioTimeline()
                for expectation in scenario.expectations {
                    _ = timeline.verdict(for: expectation.condition.anchored(in: timeline), recording: nil)
                }
                parsed += 1
            } catch {
                let fine = (0...lines).contains(error.line) && !error.message.contains("\n") && !error.message.isEmpty
                if !fine { Issue.record("round \(round): \(error) for\n\(text)") }
                refused += 1
            }
        }
        // Both outcomes must occur, or the mutations are not reaching the grammar.
        #expect(parsed > 1000 && refused > 1000, "parsed \(parsed), refused \(refused)")
    }
}
