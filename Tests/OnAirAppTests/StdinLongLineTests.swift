import Foundation
import OnAirTestSupport
import Testing

/// Issue 29 item 5 through the real binary: a 10 MB stdin line is skipped as it arrives, reported in one
/// short line, and the `quit` after it ends the run at once.
@Suite("Stdin long lines", .serialized, .timeLimit(.minutes(2)))
struct StdinLongLineTests {
    @Test("a 10 MB line then quit: a short error, and the run ends within seconds of the line's end")
    func longLineThenQuit() async throws {
        let server = try ScriptedRTMPServer()
        defer { server.stop() }
        let directory = try TemporaryDirectory(prefix: "onair-stdin")
        let pipe = Pipe()
        let run = try HeadlessRun(["subscribe", "rtmp://127.0.0.1:\(server.port)/live/stdin", "--headless"], in: directory,
                                  standardInput: pipe.fileHandleForReading)
        _ = await server.commands(named: "play")
        let writer = pipe.fileHandleForWriting
        let written = Data(repeating: UInt8(ascii: "x"), count: 10_000_000) + Data("\nquit\n".utf8)
        let start = ContinuousClock.now
        let wrote = Thread { try? writer.write(contentsOf: written) }
        wrote.start()
        var figures = ProcessFigures()
        let status = await ProcessFigures.watch(run.peer, within: .seconds(30), figures: &figures)
        if status == nil { run.peer.stop(signal: SIGKILL) }
        let elapsed = (ContinuousClock.now - start).components
        let seconds = Double(elapsed.seconds) + Double(elapsed.attoseconds) / 1e18
        try? writer.close()
        print("stdin 10 MB line then quit: \(figures), exit after \(String(format: "%.2f", seconds)) s")
        #expect(status == 0, "quit after the long line did not end the run")
        let longest = run.peer.standardOutput.split(separator: "\n").map(\.utf8.count).max() ?? 0
        #expect(longest < 1000, "an output line of \(longest) bytes: the long line was echoed")
        #expect(run.peer.standardOutput.contains("10000000 bytes ignored"))
    }
}
