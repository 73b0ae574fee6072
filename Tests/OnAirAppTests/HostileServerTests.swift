import Foundation
import OnAirRTMP
import OnAirTestSupport
import Testing

/// Issue 29 items 2 and 3 through the real binary: a server that floods pings and never reads, or floods
/// data messages, neither grows OnAir's publisher and subscriber without bound nor keeps them from quitting.
/// Each test prints its figures (peak RSS, CPU, time to quit) for the report.
@Suite("Hostile servers against the clients", .serialized, .timeLimit(.minutes(3)))
struct HostileServerTests {
    /// The most a client may reach under a flood: the bound is what matters, so this is generous (a
    /// client without one reached 1–2.5 GB in the issue's runs).
    static let memoryBoundKilobytes = 400 << 10

    /// Waits for `occurrences` of `text` in `run`'s stdout and stderr, sampling `figures`; false at the deadline.
    static func waitForOutput(_ run: HeadlessRun, containing text: String, occurrences: Int = 1, within timeout: Duration,
                              figures: inout ProcessFigures) async -> Bool {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            figures.sample(run.peer.processIdentifier)
            let output = run.peer.standardOutput + run.peer.standardError
            if output.components(separatedBy: text).count - 1 >= occurrences { return true }
            if !run.peer.isRunning { return false }
            try? await Task.sleep(for: .milliseconds(50))
        }
        return false
    }

    /// SIGINT, then the seconds until the process is gone (nil if it outlived `timeout`).
    static func secondsToQuit(_ run: HeadlessRun, within timeout: Duration, figures: inout ProcessFigures) async -> Double? {
        let start = ContinuousClock.now
        kill(run.peer.processIdentifier, SIGINT)
        guard await ProcessFigures.watch(run.peer, within: timeout, figures: &figures) != nil else {
            run.peer.stop(signal: SIGKILL)
            return nil
        }
        let elapsed = (ContinuousClock.now - start).components
        return Double(elapsed.seconds) + Double(elapsed.attoseconds) / 1e18
    }

    @Test("a data-message flood: the subscriber drops and counts, stays bounded, and quits on SIGINT at once; C1 never raw")
    func dataFloodSubscriber() async throws {
        // The text carries U+009B (the 8-bit CSI) and U+0085: the headless output must escape them.
        let server = try ScriptedRTMPServer(attack: .dataFlood(text: "flood\u{9B}2J\u{85}"))
        defer { server.stop() }
        let directory = try TemporaryDirectory(prefix: "onair-data-flood")
        let run = try HeadlessRun(["subscribe", "rtmp://127.0.0.1:\(server.port)/live/flood", "--headless"], in: directory)
        var figures = ProcessFigures()
        let warned = await Self.waitForOutput(run, containing: "dropped", within: .seconds(30), figures: &figures)
        // Let the flood run on until three warnings (one a second at most) have been given.
        _ = await Self.waitForOutput(run, containing: "in all", occurrences: 3, within: .seconds(20), figures: &figures)
        let quit = await Self.secondsToQuit(run, within: .seconds(10), figures: &figures)
        print("data flood, subscriber: \(figures), quit \(quit.map { String(format: "%.2f s", $0) } ?? "never")")
        #expect(warned, "no counted warning about dropped messages")
        #expect(quit != nil, "SIGINT did not end the run within 10 s")
        #expect(figures.peakKilobytes < Self.memoryBoundKilobytes, "grew to \(figures.peakKilobytes / 1024) MB")
        let output = (try? Data(contentsOf: run.peer.standardOutputURL)) ?? Data()
        #expect(output.range(of: Data([0xC2, 0x9B])) == nil && output.range(of: Data([0xC2, 0x85])) == nil, "raw C1 in the headless output")
        #expect(run.peer.standardOutput.contains("flood\\u009b2J\\u0085"), "the flood's text, escaped, never appeared")
    }

    /// `--duration 6` under a flood of long data messages (4 KB of text each, every one a line to escape and
    /// print): the run ends within `durationSlack` of the duration, and the loop saw no more messages than the
    /// player's budget lets through. Without the budget and the urgent quit the loop falls behind the socket,
    /// `duration reached` waits behind the backlog, and every message becomes a line (a flood of short texts
    /// did not tell the two apart: the loop kept up with it and quit at 4 s either way).
    static let durationSlack = 7.0
    /// Long enough that the budget's 100 a second, not its burst of 500, sets the count.
    static let duration = 6

    @Test("a data-message flood does not hold --duration back, and the loop sees only the budget's messages")
    func dataFloodDuration() async throws {
        let server = try ScriptedRTMPServer(attack: .dataFlood(text: String(repeating: "flood\u{9B}", count: 700)))
        defer { server.stop() }
        let directory = try TemporaryDirectory(prefix: "onair-data-flood")
        let start = ContinuousClock.now
        let run = try HeadlessRun(["subscribe", "rtmp://127.0.0.1:\(server.port)/live/flood", "--headless", "--duration", "\(Self.duration)"], in: directory)
        var figures = ProcessFigures()
        let status = await ProcessFigures.watch(run.peer, within: .seconds(60), figures: &figures)
        let elapsed = (ContinuousClock.now - start).components
        let seconds = Double(elapsed.seconds) + Double(elapsed.attoseconds) / 1e18
        if status == nil { run.peer.stop(signal: SIGKILL) }
        // Each data message the loop took is one `onTextData(…)` line (and a "no handler" line beside it).
        let messages = run.events.events.filter { $0.kind == "message" && $0.text.hasPrefix("onTextData(") }.count
        print("data flood (4 KB texts), subscriber --duration \(Self.duration): \(figures), exit \(status.map(String.init) ?? "none within 60 s") after "
              + String(format: "%.1f s", seconds) + ", \(messages) data messages printed")
        #expect(status == 0, "--duration \(Self.duration) did not end the run: \(run.peer.standardError.suffix(500))")
        #expect(run.peer.standardOutput.contains("duration reached"))
        #expect(seconds < Double(Self.duration) + Self.durationSlack, "the run ended \(seconds) s after it started, --duration \(Self.duration)")
        // The budget: a burst of 500, then 100 a second, over the whole run.
        #expect(messages <= 500 + 100 * (Int(seconds) + 1), "\(messages) data messages reached the loop in \(seconds) s")
    }

    @Test("a ping flood that never reads: each client closes on 'protocol answers unread', bounded",
          arguments: [["subscribe"], ["publish"], ["publish", "--direct"]])
    func pingFlood(command: [String]) async throws {
        let server = try ScriptedRTMPServer(attack: .pingFlood)
        defer { server.stop() }
        let directory = try TemporaryDirectory(prefix: "onair-ping-flood")
        var arguments = [command[0], "rtmp://127.0.0.1:\(server.port)/live/ping", "--headless"] + command.dropFirst()
        if command[0] == "publish" { arguments += ["--size", "160x90", "--fps", "10"] }
        let run = try HeadlessRun(arguments, in: directory)
        var figures = ProcessFigures()
        let closed = await Self.waitForOutput(run, containing: "protocol answers unread", within: .seconds(60), figures: &figures)
        let quit = await Self.secondsToQuit(run, within: .seconds(10), figures: &figures)
        print("ping flood, \(command.joined(separator: " ")): \(figures), quit \(quit.map { String(format: "%.2f s", $0) } ?? "never")")
        #expect(closed, "no 'protocol answers unread': \(run.peer.standardError.suffix(500))")
        #expect(quit != nil)
        #expect(figures.peakKilobytes < Self.memoryBoundKilobytes, "grew to \(figures.peakKilobytes / 1024) MB")
    }
}
