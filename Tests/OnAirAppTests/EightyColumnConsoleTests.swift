import Foundation
import OnAirTestSupport
import Testing

/// Issue 28 (3, 4) on the real binary at 80×24 (tmux): the demo with ABR under an 800k cap, the elevator
/// and a handoff — every figure read back whole, and the sent rate never above the cap.
@Suite("every figure whole on the real console at 80×24", .serialized)
struct EightyColumnConsoleTests {
    /// The publisher pane: the first 11 rows of the stacked demo.
    static func publisherPane(_ screen: String) -> String {
        screen.split(separator: "\n", omittingEmptySubsequences: false).prefix(11).joined(separator: "\n")
    }

    /// The figure rows of both panes (badge to fps), where nothing may be cut; log lines are not figures.
    static func figureRows(_ screen: String) -> String {
        let lines = screen.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        return (Array(lines.dropFirst(1).prefix(6)) + Array(lines.dropFirst(12).prefix(6))).joined(separator: "\n")
    }

    /// The k in `sent 790k` of the bitrate row (nil when the row does not say).
    static func sent(_ screen: String) -> Int? {
        guard let range = screen.range(of: #"sent [0-9]+k"#, options: .regularExpression) else { return nil }
        return Int(screen[range].dropFirst(5).dropLast())
    }

    @Test("ABR under an 800k cap, link down, handoff: nothing cut, sent never above the cap, the stage's reason whole")
    func abrCapElevatorHandoff() async throws {
        let directory = try TemporaryDirectory()
        let command = "\(OnAirBinary.url.path) demo --abr throughput --link-cap 800k --video grain --size 640x360 "
            + "--record-dir \(directory.url.path)/rec; echo ONAIR-EXIT=$?; sleep 60"
        let tmux = try TmuxSession(command: command, width: 80, height: 24, directory: directory.url)
        let capped = try await tmux.waitForScreen(timeout: .seconds(60)) { screen in
            Self.publisherPane(screen).contains(" PUBLISHING ") && Self.sent(screen) != nil && screen.contains(" PLAYING ")
        }
        #expect(capped.matched, "no ABR figures at 80×24:\n\(capped.screen)")
        // Read the row back for ten seconds: the cap always shown, the sent figure never above it.
        for _ in 0..<10 {
            let screen = try tmux.capture()
            let publisher = Self.publisherPane(screen)
            #expect(publisher.contains("cap 800k"), "the cap is not shown:\n\(publisher)")
            #expect((Self.sent(publisher) ?? 0) <= 800, "sent above the cap:\n\(publisher)")
            #expect(!Self.figureRows(screen).contains("…"), "a figure cut at 80×24:\n\(screen)")
            try await Task.sleep(for: .seconds(1))
        }
        try tmux.send("w")
        let stalled = try await tmux.waitForScreen(timeout: .seconds(20)) { Self.publisherPane($0).contains("retry in") }
        #expect(stalled.matched && Self.publisherPane(stalled.screen).contains(" STALLED "), "\(stalled.screen)")
        #expect(!Self.figureRows(stalled.screen).contains("…"), "a figure cut while STALLED:\n\(stalled.screen)")
        try tmux.send("w")
        _ = try await tmux.waitForScreen(timeout: .seconds(30)) { Self.publisherPane($0).contains(" PUBLISHING ") }
        try tmux.send("W")
        let handedOff = try await tmux.waitForScreen(timeout: .seconds(30)) { screen in
            Self.publisherPane(screen).contains(" PUBLISHING ") && screen.contains("path 1")
        }
        #expect(handedOff.matched, "\(handedOff.screen)")
        try tmux.send("l")
        let log = try await tmux.waitForScreen(timeout: .seconds(5)) { $0.contains("reset it on purpose (handoff)") }
        #expect(log.matched, "the handoff's reason is not whole in the log:\n\(log.screen)")
        #expect(!log.screen.contains("broke the RTMP protocol") && !log.screen.contains("errno"), "\(log.screen)")
        try tmux.send("l")
        try tmux.send("x")
        try tmux.send("q")
    }
}
