import Foundation
import OnAirTestSupport
import Testing

/// The real `onair demo` in tmux under the conventions terminal users expect: NO_COLOR, TERM=dumb, LANG=C,
/// and an 80×24 screen on which every reason and countdown stays whole.
@Suite("terminal conventions (tmux)", .serialized)
struct TerminalConventionsTests {
    static func demo(_ environment: String, _ extra: String = "", in directory: TemporaryDirectory) -> String {
        "env \(environment) \(OnAirBinary.url.path) demo --size 320x180 --record-dir \(directory.url.path)/rec \(extra); echo ONAIR-EXIT=$?; sleep 60"
    }

    /// SGR parameters that set a colour (30–37, 38;…, 40–47, 48;…, 90–97, 100–107); attributes and resets pass.
    static func colourEscapes(in screen: String) -> [String] {
        var found: [String] = []
        var rest = Substring(screen)
        while let start = rest.range(of: "\u{1B}[") {
            let after = rest[start.upperBound...]
            guard let end = after.firstIndex(where: { $0.isLetter }) else { break }
            if after[end] == "m" {
                let parameters = after[..<end].split(separator: ";").compactMap { Int($0) }
                if parameters.contains(where: { (30...38).contains($0) || (40...48).contains($0) || (90...97).contains($0) || (100...107).contains($0) }) {
                    found.append(String(after[..<end]))
                }
            }
            rest = after[after.index(after: end)...]
        }
        return found
    }

    /// A running 80×24 demo under `environment` with `extra` options, once it publishes and plays.
    static func startedDemo(_ environment: String, _ extra: String = "") async throws -> (TmuxSession, TemporaryDirectory) {
        let directory = try TemporaryDirectory()
        let tmux = try TmuxSession(command: demo(environment, extra, in: directory), width: 80, height: 24, directory: directory.url)
        let started = try await tmux.waitForScreen { $0.contains("PUBLISHING") && $0.contains("PLAYING") }
        #expect(started.matched, "demo did not start:\n\(started.screen)")
        return (tmux, directory)
    }

    @Test("no colour escapes in capture-pane -e with NO_COLOR=1, --color never or --theme monochrome", arguments: [
        ("NO_COLOR=1", ""), ("", "--color never"), ("", "--theme monochrome"),
    ])
    func noColor(environment: String, extra: String) async throws {
        let (tmux, _) = try await Self.startedDemo(environment, extra)
        let coloured = try tmux.capture(escapes: true)
        #expect(Self.colourEscapes(in: coloured).isEmpty, "colour escapes: \(Self.colourEscapes(in: coloured).prefix(5))")
        #expect(coloured.contains("\u{1B}["), "capture-pane -e shows attributes, so the check can see escapes at all")
        try tmux.send("q")
        try tmux.send("y")
    }

    @Test("--color always draws colour even with NO_COLOR set (the check above can fail)")
    func colorAlways() async throws {
        let (tmux, _) = try await Self.startedDemo("NO_COLOR=1", "--color always")
        #expect(!Self.colourEscapes(in: try tmux.capture(escapes: true)).isEmpty)
        try tmux.send("q")
        try tmux.send("y")
    }

    @Test("TERM=dumb: refused in one line pointing at --headless, exit 2")
    func dumbTerminal() async throws {
        let directory = try TemporaryDirectory()
        let tmux = try TmuxSession(command: Self.demo("TERM=dumb", in: directory), width: 160, height: 24, directory: directory.url)
        let exited = try await tmux.waitForScreen { $0.contains("ONAIR-EXIT=") }
        #expect(exited.screen.contains("ONAIR-EXIT=2"), "\(exited.screen)")
        let lines = exited.screen.split(separator: "\n").filter { !$0.trimmingCharacters(in: .whitespaces).isEmpty && !$0.hasPrefix("ONAIR-EXIT") }
        #expect(lines.count == 1, "expected one line:\n\(exited.screen)")
        #expect(lines.first?.contains("--headless") == true, "\(exited.screen)")
    }

    @Test("LANG=C: no character outside ASCII on the screen")
    func asciiLocale() async throws {
        let (tmux, _) = try await Self.startedDemo("LANG=C LC_ALL=C")
        try await Task.sleep(for: .seconds(2))
        let screen = try tmux.capture()
        let foreign = screen.unicodeScalars.filter { !$0.isASCII }
        #expect(foreign.isEmpty, "non-ASCII on screen: \(String(String.UnicodeScalarView(foreign.prefix(20))))\n\(screen)")
        #expect(screen.contains("+-"), "borders drawn with ASCII:\n\(screen)")
        try tmux.send("q")
        try tmux.send("y")
    }

    @Test("80×24: call → decline → tap, every reason, notice and countdown on screen whole (no …)")
    func eightyColumns() async throws {
        let directory = try TemporaryDirectory()
        let tmux = try TmuxSession(command: Self.demo("", "--policy tap-republish", in: directory), width: 80, height: 24, directory: directory.url)
        var screens: [String] = []
        func step(_ what: String, _ predicate: @escaping (String) -> Bool) async throws {
            let result = try await tmux.waitForScreen(timeout: .seconds(20), predicate)
            #expect(result.matched, "\(what) never showed:\n\(result.screen)")
            screens.append(result.screen)
        }
        try await step("publishing and playing") { $0.contains("PUBLISHING") && $0.contains("PLAYING") }
        try tmux.send("a")  // accept with no call: refused by the one gate, with the reason in a notice
        try await step("the refusal's reason, whole") { $0.contains("accept: nothing to accept: no call is ringing (the app is active)") }
        try tmux.send("c")
        try await step("the call") { $0.contains("Publish Background") || $0.contains("INTERRUPTED") || $0.contains("PAUSED") }
        try tmux.send("d")
        try await step("Tap to Re-Publish!") { $0.contains("Tap to Re-Publish!") && $0.contains("AWAITING TAP") }
        try tmux.send("Space")
        try await step("publishing again") { $0.contains(" PUBLISHING ") && $0.contains(" PLAYING ") }
        for screen in screens {
            // An event-log row is cut to its pane by design (`l` shows the log whole); every other line,
            // the refusal's toast and footer notice among them, must be whole.
            let cut = screen.split(separator: "\n").filter { line in
                let stamp = Array(line.dropFirst().prefix(10))  // `00:00.243 ` after the border
                let isLogRow = stamp.count == 10 && stamp[2] == ":" && stamp[5] == "." && stamp[9] == " "
                return line.contains("…") && !isLogRow
            }
            #expect(cut.isEmpty, "something was cut at 80×24:\n\(screen)")
            #expect(screen.contains("Tab pane"), "the footer lost Tab:\n\(screen)")
        }
        try tmux.send("q")
        try tmux.send("y")
        let exited = try await tmux.waitForScreen { $0.contains("ONAIR-EXIT=0") }
        #expect(exited.matched, "\(exited.screen)")
    }

    @Test("80×24, background-audio: the call's countdown (`drops in 9.8 s`) is whole, gone after decline; v m → PAUSED A+V")
    func eightyColumnsCountdown() async throws {
        let (tmux, _) = try await Self.startedDemo("", "--policy background-audio --suspend-timeout 30s")
        try tmux.send("c")
        let counting = try await tmux.waitForScreen { $0.range(of: #"drops in [0-9]+\.[0-9] s"#, options: .regularExpression) != nil }
        #expect(counting.matched, "no whole countdown:\n\(counting.screen)")
        #expect(!counting.screen.contains("…"), "\(counting.screen)")
        try tmux.send("d")
        let back = try await tmux.waitForScreen { $0.contains(" PUBLISHING ") && !$0.contains("drops in") }
        #expect(back.matched, "\(back.screen)")
        try tmux.send("v")
        try tmux.send("m")
        let paused = try await tmux.waitForScreen { $0.contains(" PAUSED A+V ") }
        #expect(paused.matched, "both paused is not PAUSED VIDEO:\n\(paused.screen)")
        try tmux.send("q")
        try tmux.send("y")
    }
}
