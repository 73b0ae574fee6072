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

    @Test("a data-message flood does not hold --duration back")
    func dataFloodDuration() async throws {
        let server = try ScriptedRTMPServer(attack: .dataFlood(text: "flood"))
        defer { server.stop() }
        let directory = try TemporaryDirectory(prefix: "onair-data-flood")
        let run = try HeadlessRun(["subscribe", "rtmp://127.0.0.1:\(server.port)/live/flood", "--headless", "--duration", "3"], in: directory)
        var figures = ProcessFigures()
        let status = await ProcessFigures.watch(run.peer, within: .seconds(30), figures: &figures)
        if status == nil { run.peer.stop(signal: SIGKILL) }
        print("data flood, subscriber --duration 3: \(figures), exit \(status.map(String.init) ?? "none within 30 s")")
        #expect(status == 0, "--duration 3 did not end the run: \(run.peer.standardError.suffix(500))")
        #expect(run.peer.standardOutput.contains("duration reached"))
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
