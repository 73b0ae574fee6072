import Foundation
import OnAirTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The real `onair` console in a real terminal (tmux): however it ends — Ctrl-C, SIGTERM — the alternate
/// screen is left and the terminal is back in cooked mode; a resize lays the dashboard out again; 80×24 works.
///
/// Each program runs from a small bash script in the pane that records the pane's tty and the program's pid,
/// then, once the program has ended, prints its exit status and the termios flags `stty -a` reports — exactly
/// what an operator's shell would find.
@Suite("the console restores the terminal on every way out", .serialized)
struct TerminalRestoreTests {
    enum Program: String, CaseIterable, CustomTestStringConvertible {
        /// A live broadcast through the built-in relay: the heavier shutdown (stop publishing, stop the relay).
        case demo
        /// A subscriber to a valid URL on a loopback port nobody listens on.
        case subscribe

        var testDescription: String { "onair \(rawValue)" }
    }

    enum Stop: String, CaseIterable, CustomTestStringConvertible {
        case controlC
        case sigterm

        var testDescription: String { self == .controlC ? "Ctrl-C" : "kill -TERM" }
    }

    /// A program running in tmux from `run.sh`, with its scratch directory.
    struct Run {
        var tmux: TmuxSession
        var directory: TemporaryDirectory

        /// The onair process's pid, once the script has written it.
        func pid() throws -> pid_t {
            let file = directory.file("pid")
            let deadline = ContinuousClock.now + .seconds(60)
            while ContinuousClock.now < deadline {
                if let text = try? String(contentsOf: file, encoding: .utf8), let pid = pid_t(text.trimmingCharacters(in: .whitespacesAndNewlines)) {
                    return pid
                }
                Thread.sleep(forTimeInterval: 0.05)
            }
            throw PeerError.failed("the script never wrote onair's pid")
        }

        /// The termios flags among `names` that the pane's tty has now, `-` for those off (`stty -a -F`).
        func flags(_ names: Set<String>) throws -> Set<String> {
            let tty = try String(contentsOf: directory.file("tty"), encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
            let result = try PeerProcess.run("stty", ["-a", "-F", tty], in: directory.url, timeout: .seconds(10))
            guard result.status == 0 else { throw PeerError.failed("stty -a -F \(tty) exited with \(result.status): \(result.error)") }
            return TerminalRestoreTests.flags(in: result.output, names)
        }
    }

    static let termiosNames: Set<String> = ["icanon", "echo", "isig"]

    /// The flags among `names` in `stty -a` output, as words: `icanon`, or `-icanon` when off.
    static func flags(in text: some StringProtocol, _ names: Set<String>) -> Set<String> {
        let words: [String] = text.split(whereSeparator: { $0 == " " || $0 == ";" || $0 == "\n" }).map { String($0) }
        return Set(words.filter { word in
            names.contains(word) || (word.hasPrefix("-") && names.contains(String(word.dropFirst())))
        })
    }

    /// The `STTY:[…]` line the script prints after onair ends, as a set of flags.
    static func printedFlags(_ screen: String) -> Set<String>? {
        guard let line = screen.split(separator: "\n").first(where: { $0.contains("STTY:[") }),
              let open = line.range(of: "STTY:["), let close = line.range(of: "]", range: open.upperBound..<line.endIndex)
        else { return nil }
        return flags(in: line[open.upperBound..<close.lowerBound], termiosNames)
    }

    static func exitStatus(_ screen: String) -> Int? {
        guard let line = screen.split(separator: "\n").first(where: { $0.contains("ONAIR-EXIT=") }),
              let range = line.range(of: "ONAIR-EXIT=") else { return nil }
        return Int(line[range.upperBound...].prefix { $0.isNumber })
    }

    /// Box-drawing characters of the dashboard's panels: none may be left on the shell's screen.
    static let panelCharacters: Set<Character> = ["┏", "┓", "┗", "┛", "┃", "━", "┌", "┐", "└", "┘", "│", "─", "▀"]

    static func shellQuoted(_ text: String) -> String { "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'" }

    func start(_ program: Program, width: Int = 160, height: Int = 48) throws -> Run {
        let directory = try TemporaryDirectory(prefix: "onair-restore")
        let arguments: [String]
        switch program {
        case .demo:
            arguments = ["demo", "--size", "320x180", "--record-dir", directory.file("rec").path]
        case .subscribe:
            let port = try FreePort.loopback()
            arguments = ["subscribe", "rtmp://127.0.0.1:\(port)/live/none"]
        }
        return try start(arguments: arguments, in: directory, width: width, height: height)
    }

    /// `onair ARGUMENTS` in a tmux pane from `run.sh` (see the suite's comment).
    func start(arguments: [String], in directory: TemporaryDirectory, width: Int = 160, height: Int = 48, environment: String = "") throws -> Run {
        let command = ([OnAirBinary.url.path] + arguments).map(Self.shellQuoted).joined(separator: " ")
        let dir = Self.shellQuoted(directory.url.path)
        let script = """
            export LANG="${LANG:-C.UTF-8}"
            \(environment)
            tty > \(dir)/tty
            ( echo $BASHPID > \(dir)/pid; exec \(command) )
            echo ONAIR-EXIT=$?
            echo "STTY:[$(stty -a | tr -s ' ;' '\\n\\n' | grep -xE -- '-?(icanon|echo|isig)' | tr '\\n' ' ')]"
            sleep 120

            """
        try script.write(to: directory.file("run.sh"), atomically: true, encoding: .utf8)
        let tmux = try TmuxSession(command: "bash \(directory.file("run.sh").path)", width: width, height: height, directory: directory.url)
        return Run(tmux: tmux, directory: directory)
    }

    /// The dashboard is up: a badge and the footer are on screen.
    static func dashboardShown(_ screen: String, _ program: Program) -> Bool {
        let footer = screen.contains("q quit")
        switch program {
        case .demo: return footer && screen.contains(" PUBLISHING ") && screen.contains(" PLAYING ")
        case .subscribe:
            return footer && ["CONNECTING", "ERROR", "RECONNECTING", "WAITING FOR PUBLISHER"].contains { screen.contains(" \($0) ") }
        }
    }

    @Test("Ctrl-C and SIGTERM: onair exits 0, the alternate screen is gone, the tty is in cooked mode again",
          arguments: Program.allCases, Stop.allCases)
    func stopRestoresTerminal(program: Program, stop: Stop) async throws {
        let run = try start(program)
        let shown = try await run.tmux.waitForScreen(timeout: .seconds(60)) { Self.dashboardShown($0, program) }
        try #require(shown.matched, "the dashboard never came up:\n\(shown.screen)")
        // While the console runs, the tty is raw-ish (cbreak, no echo): otherwise the checks below prove nothing.
        let during = try run.flags(Self.termiosNames)
        #expect(during.contains("-icanon") && during.contains("-echo"), "the console did not take the terminal: \(during)")

        switch stop {
        case .controlC: try run.tmux.send("C-c")
        case .sigterm:
            let pid = try run.pid()
            #expect(kill(pid, SIGTERM) == 0)
        }
        let ended = try await run.tmux.waitForScreen(timeout: .seconds(60)) { Self.printedFlags($0) != nil }
        try #require(ended.matched, "onair did not exit after \(stop.testDescription):\n\(ended.screen)")
        #expect(Self.exitStatus(ended.screen) == 0, "exit status:\n\(ended.screen)")
        // The shell's own screen: its output, nothing of the dashboard (ncurses left the alternate screen).
        #expect(!ended.screen.contains { Self.panelCharacters.contains($0) }, "dashboard left on screen:\n\(ended.screen)")
        #expect(!ended.screen.contains("q quit"), "footer left on screen:\n\(ended.screen)")
        #expect(!ended.screen.contains("^C"), "the tty echoed Ctrl-C, so echo was on while the console ran:\n\(ended.screen)")
        let printed = try #require(Self.printedFlags(ended.screen))
        #expect(printed == ["icanon", "echo", "isig"], "stty -a after onair: \(printed)\n\(ended.screen)")
        let after = try run.flags(Self.termiosNames)
        #expect(after == ["icanon", "echo", "isig"], "stty -a -F on the pane's tty after onair: \(after)")
    }

    @Test("a resize to 100×30 lays the demo out again: stacked panes spanning exactly 100 columns, badges and footer shown")
    func resizeRelaysOut() async throws {
        let run = try start(.demo, width: 160, height: 48)
        let wide = try await run.tmux.waitForScreen(timeout: .seconds(60)) { Self.dashboardShown($0, .demo) }
        try #require(wide.matched, "the dashboard never came up:\n\(wide.screen)")
        // Side by side at 160 columns: both badges on one row.
        #expect(wide.screen.split(separator: "\n").contains { $0.contains(" PUBLISHING ") && $0.contains(" PLAYING ") }, "\(wide.screen)")

        try run.tmux.resize(width: 100, height: 30)
        let narrow = try await run.tmux.waitForScreen(timeout: .seconds(60)) { screen in
            let lines = screen.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            return Self.stackedLayout(lines, width: 100, height: 30) == nil
        }
        let lines = narrow.screen.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(narrow.matched, "not laid out again at 100×30: \(Self.stackedLayout(lines, width: 100, height: 30) ?? "")\n\(narrow.screen)")

        try run.tmux.send("q")
        try run.tmux.send("y")
        let ended = try await run.tmux.waitForScreen(timeout: .seconds(60)) { Self.printedFlags($0) != nil }
        #expect(ended.matched && Self.exitStatus(ended.screen) == 0, "\(ended.screen)")
    }

    @Test("at 80×24 the demo is usable: stacked panes, both badges, the footer, and q/y quits")
    func smallTerminal() async throws {
        let run = try start(.demo, width: 80, height: 24)
        let shown = try await run.tmux.waitForScreen(timeout: .seconds(60)) { screen in
            let lines = screen.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            return Self.dashboardShown(screen, .demo) && Self.stackedLayout(lines, width: 80, height: 24) == nil
        }
        let lines = shown.screen.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(shown.matched, "not usable at 80×24: \(Self.stackedLayout(lines, width: 80, height: 24) ?? "")\n\(shown.screen)")

        // Keys still work at this size: Tab moves the focus (the heavy frame) to the subscriber pane.
        try run.tmux.send("Tab")
        let focused = try await run.tmux.waitForScreen(timeout: .seconds(60)) { screen in
            screen.split(separator: "\n").contains { $0.hasPrefix("┏") && $0.contains("Subscriber") }
        }
        #expect(focused.matched, "Tab did not move the focus to the subscriber:\n\(focused.screen)")

        try run.tmux.send("q")
        let asked = try await run.tmux.waitForScreen(timeout: .seconds(60)) { $0.contains("Stop broadcasting and quit? y/n") }
        #expect(asked.matched, "q while live did not ask first:\n\(asked.screen)")
        try run.tmux.send("y")
        let ended = try await run.tmux.waitForScreen(timeout: .seconds(60)) { Self.printedFlags($0) != nil }
        #expect(ended.matched && Self.exitStatus(ended.screen) == 0, "\(ended.screen)")
        #expect(Self.printedFlags(ended.screen) == ["icanon", "echo", "isig"], "\(ended.screen)")
    }

    /// Nil when `lines` are the demo stacked for a `width`×`height` terminal: the publisher's panel on top, the
    /// subscriber's below, each panel's top border spanning exactly `width` columns, the footer on the last
    /// row. Otherwise what is wrong.
    static func stackedLayout(_ lines: [String], width: Int, height: Int) -> String? {
        guard lines.count >= height else { return "\(lines.count) rows, expected \(height)" }
        let borders = lines.indices.filter { ["┏", "┌"].contains(lines[$0].first) }
        guard borders.count == 2 else { return "\(borders.count) top borders, expected 2 (stacked)" }
        for index in borders {
            let line = lines[index]
            guard line.count == width, ["┓", "┐"].contains(line.last) else {
                return "top border on row \(index) is \(line.count) columns, expected \(width)"
            }
        }
        guard lines[borders[0]].contains("Publisher"), lines[borders[1]].contains("Subscriber") else { return "panes out of order" }
        guard let publishing = lines.firstIndex(where: { $0.contains(" PUBLISHING ") }),
              let playing = lines.firstIndex(where: { $0.contains(" PLAYING ") }) else { return "a badge is missing" }
        guard borders[0] < publishing, publishing < borders[1], borders[1] < playing else { return "badges not in their panes" }
        guard lines[height - 1].contains("q quit") else { return "no footer on the last row" }
        return nil
    }

    @Test("a crash (a fatal signal: SIGSEGV, SIGABRT, SIGILL as a Swift trap raises) restores the terminal before the process dies",
          arguments: [SIGSEGV, SIGABRT, SIGILL])
    func crashRestoresTerminal(signal: Int32) async throws {
        let run = try start(.demo)
        let shown = try await run.tmux.waitForScreen(timeout: .seconds(60)) { Self.dashboardShown($0, .demo) }
        try #require(shown.matched, "the dashboard never came up:\n\(shown.screen)")
        #expect(try run.flags(Self.termiosNames).contains("-icanon"), "the console did not take the terminal")

        #expect(kill(try run.pid(), signal) == 0)
        let crashed = try await run.tmux.waitForScreen(timeout: .seconds(60)) { $0.contains("onair: crashed (fatal signal); the terminal was restored") }
        #expect(crashed.matched, "no crash notice:\n\(crashed.screen)")
        // Restored at once, before Swift's backtracer (which may wait for a key) or the shell gets to run.
        #expect(try run.flags(Self.termiosNames) == ["icanon", "echo", "isig"], "the tty is still raw after the crash")
        #expect(!crashed.screen.contains { Self.panelCharacters.contains($0) }, "dashboard left on screen:\n\(crashed.screen)")
        try run.tmux.send("q")
        let ended = try await run.tmux.waitForScreen(timeout: .seconds(60)) { Self.printedFlags($0) != nil }
        try #require(ended.matched, "the crashed onair never ended:\n\(ended.screen)")
        #expect(Self.exitStatus(ended.screen) == 128 + Int(signal), "a crash must not look like success:\n\(ended.screen)")
        #expect(Self.printedFlags(ended.screen) == ["icanon", "echo", "isig"])
    }

    @Test("a malformed theme or a bad argument stops in one line before the terminal is touched; the tty stays cooked",
          arguments: ["theme", "argument"])
    func refusalsLeaveTerminalAlone(kind: String) async throws {
        let directory = try TemporaryDirectory(prefix: "onair-restore")
        let arguments: [String]
        var environment = ""
        if kind == "theme" {
            try FileManager.default.createDirectory(at: directory.file("themes"), withIntermediateDirectories: true)
            try Data("# broken\nliveBadge = bold on\nerror = #12345\n".utf8).write(to: directory.file("themes/broken.theme"))
            environment = "export ONAIR_THEMES=\(Self.shellQuoted(directory.file("themes").path))"
            arguments = ["demo", "--theme", "broken", "--size", "320x180"]
        } else {
            arguments = ["demo", "--size", "12x"]
        }
        let run = try start(arguments: arguments, in: directory, environment: environment)
        let ended = try await run.tmux.waitForScreen(timeout: .seconds(60)) { Self.printedFlags($0) != nil }
        try #require(ended.matched, "onair did not stop:\n\(ended.screen)")
        #expect(Self.exitStatus(ended.screen) == 2, "a usage error is status 2:\n\(ended.screen)")
        #expect(Self.printedFlags(ended.screen) == ["icanon", "echo", "isig"])
        #expect(!ended.screen.contains { Self.panelCharacters.contains($0) })
        let message = ended.screen.split(separator: "\n").filter { $0.hasPrefix("onair") }
        #expect(message.count == 1, "not one line:\n\(ended.screen)")
        let expected = kind == "theme" ? "broken.theme:2" : "12x"
        #expect(message.first?.contains(expected) == true, "the message does not point at the fault:\n\(ended.screen)")
    }
}
