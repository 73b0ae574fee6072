import Foundation
import OnAirConsole
import Testing

/// Golden-file comparison for whole screens (docs/conventions.md §7).
///
/// Goldens live in `Snapshots/` and are read through `Bundle.module`. With `ONAIR_RECORD_SNAPSHOTS=1`
/// the current output is written to the source tree instead and the test fails, so a recording run can
/// never be mistaken for a passing one; run again without the variable (after a rebuild) to compare.
enum Snapshot {
    static var isRecording: Bool { ProcessInfo.processInfo.environment["ONAIR_RECORD_SNAPSHOTS"] == "1" }

    static let sourceDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Snapshots")

    static func assert(_ actual: String, named name: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let file = name + ".txt"
        let text = actual.hasSuffix("\n") ? actual : actual + "\n"
        if isRecording {
            do {
                try text.write(to: sourceDirectory.appendingPathComponent(file), atomically: true, encoding: .utf8)
                Issue.record("recorded \(file); run again without ONAIR_RECORD_SNAPSHOTS to compare", sourceLocation: sourceLocation)
            } catch {
                Issue.record("could not record \(file): \(error)", sourceLocation: sourceLocation)
            }
            return
        }
        guard let directory = Bundle.module.url(forResource: "Snapshots", withExtension: nil),
              let expected = try? String(contentsOf: directory.appendingPathComponent(file), encoding: .utf8)
        else {
            Issue.record("no golden \(file); record it with ONAIR_RECORD_SNAPSHOTS=1", sourceLocation: sourceLocation)
            return
        }
        if expected != text {
            let expectedLines = expected.split(separator: "\n", omittingEmptySubsequences: false)
            let actualLines = text.split(separator: "\n", omittingEmptySubsequences: false)
            let firstDifference = zip(expectedLines, actualLines).enumerated().first { $0.element.0 != $0.element.1 }?.offset
                ?? min(expectedLines.count, actualLines.count)
            Issue.record(
                """
                \(file) differs from its golden at line \(firstDifference + 1) \
                (re-record with ONAIR_RECORD_SNAPSHOTS=1 if the change is intended):
                --- actual ---
                \(text)
                """,
                sourceLocation: sourceLocation
            )
        }
    }

    /// A screen as text with a ruler line of its size, so a golden shows the frame it was drawn in.
    static func screen(_ buffer: CellBuffer) -> String {
        (["# \(buffer.width)x\(buffer.height)"] + buffer.textLines()).joined(separator: "\n")
    }

    /// The screen's text, then its style layer: one letter per distinct style, with a legend in theme-file
    /// syntax. This is what makes theme snapshots differ by theme, not only by text.
    static func styled(_ buffer: CellBuffer) -> String {
        var letters: [Style: Character] = [:]
        var legend: [String] = []
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")
        var layer: [String] = []
        for row in 0..<buffer.height {
            var line = ""
            for column in 0..<buffer.width {
                let style = buffer[column, row].style
                if letters[style] == nil {
                    let letter = letters.count < alphabet.count ? alphabet[letters.count] : "*"
                    letters[style] = letter
                    legend.append("\(letter) = \(style)")
                }
                line.append(letters[style]!)
            }
            layer.append(line)
        }
        return ([screen(buffer), "# styles"] + legend + ["# style layer"] + layer).joined(separator: "\n")
    }
}
