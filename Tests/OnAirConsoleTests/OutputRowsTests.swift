import Foundation
import OnAirConsole
import OnAirCore
import Testing

/// Issue 30 (4): `onair publish URL URL …` shows a row per destination — index, host, state, sent rate,
/// queue, reconnects — in the publisher's pane, every figure whole at 80×24 (RowFit) and at 160×48.
@Suite("a dashboard row per output")
struct OutputRowsTests {
    /// Three destinations in three situations: healthy, frozen and filling its queue, waiting to retry.
    static let rows = [
        OutputRow(index: 1, host: "ingest-a.example.com", state: "PUBLISHING", sentBitsPerSecond: 2_512_000, queueDepth: 2, reconnects: 0),
        OutputRow(index: 2, host: "live-b.example.net:1936", state: "STALLED", sentBitsPerSecond: 0, queueDepth: 21345, reconnects: 12),
        OutputRow(index: 3, host: "127.0.0.1:19350", state: "RECONNECTING 3/20", sentBitsPerSecond: 0, queueDepth: 0, reconnects: 3),
    ]

    static func screen(_ rows: [OutputRow]) -> ConsoleScreen {
        var telemetry = ConsoleFixtures.telemetry()
        telemetry.outputs = rows
        return ConsoleScreen(publisher: ConsoleFixtures.publisher(), publisherTelemetry: telemetry, now: ConsoleFixtures.now)
    }

    /// The screen's line that holds `label`, without the pane's border, runs of spaces as one.
    static func line(_ label: String, in lines: [String]) -> String? {
        raw(label, in: lines).map { $0.split(separator: " ").joined(separator: " ") }
    }

    /// The screen's line that holds `label` as drawn (the table's padding kept).
    static func raw(_ label: String, in lines: [String]) -> String? {
        lines.first { $0.contains("│" + label) }.map { $0.trimmingCharacters(in: .init(charactersIn: "│ ")) }
    }

    /// Where `word` starts in the row of `label`: the columns line up when it is the same in every row.
    static func column(of word: String, row label: String, in lines: [String]) -> Int? {
        guard let row = raw(label, in: lines), let range = row.range(of: word) else { return nil }
        return row.distance(from: row.startIndex, to: range.lowerBound)
    }

    @Test("80×24: a row per output, short words, every host and number whole")
    func eighty() {
        let lines = Self.screen(Self.rows).render(width: 80, height: 24, theme: .builtInDefault).textLines()
        let text = lines.joined(separator: "\n")
        #expect(!text.contains("…"), "\(text)")
        #expect(Self.line("output 1", in: lines) == "output 1 ingest-a.example.com PUBLISHING sent 2.5M q 2 rc 0", "\(text)")
        #expect(Self.line("output 2", in: lines) == "output 2 live-b.example.net:1936 STALLED sent 0 q 21345 rc 12", "\(text)")
        #expect(Self.line("output 3", in: lines) == "output 3 127.0.0.1:19350 RECONNECTING 3/20 sent 0 q 0 rc 3", "\(text)")
        // A table: the same field starts in the same column on every row.
        let states = [("output 1", "PUBLISHING"), ("output 2", "STALLED"), ("output 3", "RECONNECTING")]
        #expect(Set(states.map { Self.column(of: $0.1, row: $0.0, in: lines) }).count == 1, "\(text)")
        #expect(Set(["output 1", "output 2", "output 3"].map { Self.column(of: " q ", row: $0, in: lines) }).count == 1, "\(text)")
        // The info rows and the log are still there.
        #expect(text.contains("bitrate"), "\(text)")
        #expect(text.contains("events"), "\(text)")
    }

    @Test("160×48: the long form, two spaces between fields")
    func wide() {
        let lines = Self.screen(Self.rows).render(width: 160, height: 48, theme: .builtInDefault).textLines()
        let text = lines.joined(separator: "\n")
        #expect(Self.line("output 2", in: lines) == "output 2 live-b.example.net:1936 STALLED sent 0 b/s queue 21345 reconnects 12", "\(text)")
        #expect(Self.line("output 1", in: lines) == "output 1 ingest-a.example.com PUBLISHING sent 2.51 Mb/s queue 2 reconnects 0", "\(text)")
        #expect(Self.raw("output 3", in: lines)?.contains("RECONNECTING 3/20  sent 0 b/s") == true, "two spaces apart: \(text)")
    }

    @Test("a host too long for 80 columns goes whole; the numbers stay whole")
    func longHostGoesFirst() {
        var rows = Self.rows
        rows[1].host = String(repeating: "very-long-ingest-name.", count: 4) + "example.com"
        let lines = Self.screen(rows).render(width: 80, height: 24, theme: .builtInDefault).textLines()
        let text = lines.joined(separator: "\n")
        #expect(Self.line("output 2", in: lines) == "output 2 STALLED sent 0 q 21345 rc 12", "\(text)")
        #expect(!text.contains("very-long"), "\(text)")
    }

    @Test("more outputs than rows: the rest are counted, not cut off silently")
    func moreThanFit() {
        let many = (1...12).map { OutputRow(index: $0, host: "h\($0).example.com", state: "PUBLISHING", sentBitsPerSecond: 800_000, queueDepth: 1, reconnects: 0) }
        let lines = Self.screen(many).render(width: 80, height: 24, theme: .builtInDefault).textLines()
        let text = lines.joined(separator: "\n")
        let shown = lines.filter { $0.contains("│output ") || $0.contains("│out ") }.count
        #expect(shown >= 3, "\(text)")
        #expect(text.contains("+\(12 - shown) more outputs"), "\(text)")
    }

    @Test("one URL: no output rows")
    func oneURL() {
        let text = Self.screen([]).render(width: 80, height: 24, theme: .builtInDefault).textLines().joined(separator: "\n")
        #expect(!text.contains("output 1"), "\(text)")
    }

    @Test("the host: the port only when not the scheme's, IPv6 in brackets, never the key")
    func host() throws {
        #expect(OutputRow.host(of: try StreamURL("rtmp://a.example.com/live/SECRET")) == "a.example.com")
        #expect(OutputRow.host(of: try StreamURL("rtmps://a.example.com:443/app/SECRET")) == "a.example.com")
        #expect(OutputRow.host(of: try StreamURL("rtmp://127.0.0.1:1936/live/SECRET")) == "127.0.0.1:1936")
        #expect(OutputRow.host(of: try StreamURL("rtmp://[::1]:1936/live/SECRET")) == "[::1]:1936")
    }
}
