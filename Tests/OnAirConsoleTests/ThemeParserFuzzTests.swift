import Foundation
import OnAirConsole
import OnAirCore
import Testing

/// The theme parser reads user-editable files: it must never trap, whatever the bytes (docs/platform-notes.md,
/// "Fuzzing"). Thousands of random and mutated inputs from a fixed seed, so a failure replays exactly.
@Suite("Theme parser robustness")
struct ThemeParserFuzzTests {
    static let seeds: [[UInt8]] = {
        let names = ["default", "high-contrast", "light", "monochrome"]
        return names.compactMap { FileManager.default.contents(atPath: ThemeFiles.directory + "/\($0).theme").map(Array.init) }
    }()

    /// Pieces that steer mutations toward the grammar's edges.
    static let tokens: [[UInt8]] = ["\"", "=", "#", "\n", "\r\n", " on ", "bold", "#ff00", "color999", "bright-", "\u{FEFF}", "on", "\t", "liveBadge", "界", "\u{0}"]
        .map { Array($0.utf8) } + [[0xFF], [0xC3], [0xE2, 0x94], [0xED, 0xA0, 0x80]]

    static func mutate(_ input: [UInt8], using rng: inout SplitMix64) -> [UInt8] {
        var bytes = input
        for _ in 0..<Int.random(in: 1...8, using: &rng) {
            let position = bytes.isEmpty ? 0 : Int.random(in: 0..<bytes.count, using: &rng)
            switch Int.random(in: 0..<6, using: &rng) {
            case 0 where !bytes.isEmpty: bytes[position] ^= UInt8(1 << Int.random(in: 0..<8, using: &rng))
            case 1 where !bytes.isEmpty: bytes.remove(at: position)
            case 2: bytes.insert(UInt8.random(in: 0...255, using: &rng), at: position)
            case 3: bytes.insert(contentsOf: tokens.randomElement(using: &rng)!, at: position)
            case 4 where !bytes.isEmpty:
                let end = min(bytes.count, position + Int.random(in: 1...40, using: &rng))
                bytes.removeSubrange(position..<end)
            default:
                let donor = seeds.randomElement(using: &rng) ?? []
                guard !donor.isEmpty else { continue }
                let start = Int.random(in: 0..<donor.count, using: &rng)
                bytes.insert(contentsOf: donor[start..<min(donor.count, start + 60)], at: position)
            }
        }
        return bytes
    }

    /// Parses and checks the contract: a theme, or a failure on a real line with a one-line message.
    static func check(_ bytes: [UInt8]) -> Bool {
        let lineCount = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).count
        do {
            let result = try ThemeParser().parse(bytes, file: "fuzz.theme", name: "fuzz")
            return result.warnings.allSatisfy { (1...lineCount).contains($0.line) && !$0.description.contains("\n") }
        } catch {
            return (1...lineCount).contains(error.line) && !error.message.contains("\n") && !error.message.isEmpty
        }
    }

    @Test("10,000 mutated theme files never trap, and every failure names a real line")
    func mutatedFiles() {
        #expect(Self.seeds.count == 4)
        var rng = SplitMix64(state: 0x0A1A_2026)
        var bad: [[UInt8]] = []
        for _ in 0..<10_000 {
            let input = Self.mutate(Self.seeds.randomElement(using: &rng)!, using: &rng)
            if !Self.check(input) { bad.append(input) }
        }
        #expect(bad.isEmpty, "first offending input: \(bad.first.map { String(decoding: $0, as: UTF8.self) } ?? "")")
    }

    @Test("5,000 random byte strings never trap")
    func randomBytes() {
        var rng = SplitMix64(state: 6)
        var bad = 0
        for _ in 0..<5_000 {
            let length = Int.random(in: 0..<300, using: &rng)
            let alphabet: [UInt8] = Array("liveBadge=\"#on bold color1234567890abcdef\n\r\t".utf8) + [0, 0x80, 0xFF, 0xE2]
            let input = (0..<length).map { _ in
                Bool.random(using: &rng) ? alphabet.randomElement(using: &rng)! : UInt8.random(in: 0...255, using: &rng)
            }
            if !Self.check(input) { bad += 1 }
        }
        #expect(bad == 0)
    }
}
