import Foundation
import OnAirTestSupport
import Testing

/// Issue 25: the report's figures are worked out from typed events — the publisher's status as a value, the
/// subscriber's plays as a count — not from the text of a badge or a log line. On the real binary: a call,
/// a decline and a tap are timed back to PUBLISHING, and the subscriber's replay after the unpublish (its
/// reconnect loop plays again after `--reconnect-delay`, 2 s) is a reconnect.
@Suite("scenario report figures from typed events")
struct ScenarioReportFiguresTests {
    @Test("decline then tap: back to PUBLISHING is timed from the tap; the subscriber's replay counts as a reconnect")
    func declineTapFigures() async throws {
        let directory = try TemporaryDirectory()
        let file = directory.file("figures.scenario")
        try Data("""
            scenario Report figures
            policy tap-republish
            expect publisher status is PUBLISHING within 20s
            expect subscriber state is PLAYING within 20s
            wait 1s
            press call
            expect publisher pauseVideo is true within 3s
            wait 1s
            press decline
            expect publisher status is "AWAITING TAP" within 5s
            expect subscriber log "on a new connection" within 10s
            press tap
            expect publisher status is PUBLISHING within 10s
            expect subscriber state is PLAYING within 20s

            """.utf8).write(to: file)
        let run = try HeadlessRun(
            ["demo", "--headless", "--report", "--record-dir", directory.file("rec").path, "--size", "320x180", "--fps", "15",
             "--bitrate", "300k", "--script", file.path], in: directory)
        let status = await run.peer.exitStatus(within: .seconds(180))
        #expect(status == 0, "exit \(String(describing: status)): \(run.peer.standardError)")
        let report = try #require(run.events.events.first { $0.kind == "report" }?.details, "no report: \(run.peer.standardOutput.suffix(2000))")
        let back = report["backToPublishing"] as? [[String: Any]] ?? []
        #expect(back.map { $0["trigger"] as? String } == ["tap"], "\(report)")
        #expect((report["subscriberReconnectAttempts"] as? Int ?? 0) >= 1, "\(report)")
        #expect(report["publisherReconnectAttempts"] as? Int == 0, "\(report)")
    }
}
