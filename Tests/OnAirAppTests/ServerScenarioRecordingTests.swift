import Foundation
import OnAirTestSupport
import Testing

/// Issue 27: the embedded relay's recording across the server's interruptions, read by real ffprobe and
/// ffmpeg rather than OnAir's own FLV reader (which the scenarios' `expect recording …` lines use). The four
/// server scenarios record (`type record`); every reconnect and the move's new publish append to the file,
/// so each scenario must leave one file that plays from before its interruption to its end.
@Suite("server scenarios' recordings", .serialized)
struct ServerScenarioRecordingTests {
    /// Played in this order; each scenario's first publish is a `record`, which keeps the previous scenario's
    /// file as `stream1-N.flv` (N from 1), so the files map to the scenarios by number, the last unnumbered.
    static let scenarios = ["server-restart", "server-busy", "server-stall", "server-move"]

    /// One track's packets as ffprobe reads them: decode timestamps in seconds.
    struct Track {
        var times: [Double] = []
        var span: Double { (times.last ?? 0) - (times.first ?? 0) }
        var goesBack: Bool { zip(times, times.dropFirst()).contains { $1 < $0 } }
        var largestStep: Double { zip(times, times.dropFirst()).map { $1 - $0 }.max() ?? 0 }
    }

    @Test("restart, busy, stall and move each leave one recording that ffprobe reads whole, never going back, the outage not in it, spanning both sides of the interruption")
    func recordingsSurviveTheServer() async throws {
        let directory = try TemporaryDirectory()
        let records = directory.file("rec")
        let scripts = Self.scenarios.flatMap { ["--script", ScenarioRunTests.scenarios.appendingPathComponent("\($0).scenario").path] }
        let run = try HeadlessRun(["demo", "--headless", "--report", "--record-dir", records.path] + ScenarioRunTests.light + scripts, in: directory)
        // About 100 s of scenarios on an idle machine.
        let status = await run.peer.exitStatus(within: .seconds(600))
        let events = run.events.events
        let failed = events.filter { $0.kind == "expectation" && $0.details["met"] as? Bool == false }
        try #require(status == 0, "exit \(status): \(run.peer.standardError)\nfailed: \(failed.map(\.details))")

        let files = Self.scenarios.indices.map { index in
            records.appendingPathComponent(index == Self.scenarios.count - 1 ? "stream1.flv" : "stream1-\(index + 1).flv")
        }
        let listed = try FileManager.default.contentsOfDirectory(atPath: records.path).filter { $0.hasSuffix(".flv") }.sorted()
        #expect(listed == files.map(\.lastPathComponent).sorted(), "one file per scenario, no more: \(listed)")
        let reports = events.filter { $0.kind == "report" }
        try #require(reports.count == Self.scenarios.count)

        for (index, name) in Self.scenarios.enumerated() {
            let file = files[index]
            let probe = try await PeerProcess.run("ffprobe", [
                "-v", "error", "-show_entries", "packet=codec_type,dts_time", "-of", "csv=p=0", file.path,
            ], in: directory.url, timeout: .seconds(60))
            #expect(probe.status == 0 && probe.error.isEmpty, "\(name): ffprobe cannot read every tag: \(probe.error)")
            var tracks: [String: Track] = [:]
            for line in probe.output.split(separator: "\n") {
                let fields = line.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
                guard fields.count == 2, let time = Double(fields[1]) else { continue }
                tracks[fields[0], default: Track()].times.append(time)
            }
            let video = tracks["video"] ?? Track(), audio = tracks["audio"] ?? Track()
            #expect(video.times.count > 30 && audio.times.count > 30, "\(name): \(video.times.count) video, \(audio.times.count) audio packets")
            #expect(!video.goesBack && !audio.goesBack, "\(name): timestamps go back within the file")
            // The interruption (3 s refused, 8 s busy, 30 s stalled) is not in the file: the appends carry on.
            #expect(video.largestStep < 1.0, "\(name): a jump of \(video.largestStep) s, the outage is in the file")

            // OnAir's reader (the scenario's `expect recording`, the report) and ffprobe agree on the length.
            let recorded = (reports[index].details["recordings"] as? [[String: Any]])?.first?["durationMs"] as? Int ?? 0
            #expect(abs(video.span * 1000 - Double(recorded)) < 250, "\(name): ffprobe reads \(video.span) s, the report \(recorded) ms")
            // Both sides of the interruption: longer than the broadcast after the last (re)publish, by at least
            // the 3 s the scenario waits before its press.
            let after = Self.secondsAfterLastPublish(in: events, scenario: index)
            #expect(video.span > after + 2.5, "\(name): the file spans \(video.span) s, the last publish ran \(after) s — the part before the interruption is missing")

            let decode = try await PeerProcess.run("ffmpeg", ["-v", "error", "-i", file.path, "-f", "null", "-"], in: directory.url, timeout: .seconds(120))
            #expect(decode.status == 0 && decode.error.isEmpty, "\(name): the recording does not decode cleanly: \(decode.error)")
        }
    }

    /// Seconds from scenario `index`'s last (re)publish to its end (its `scenario` result event): the last time
    /// the publisher's status became PUBLISHING, or a move's new connection took over (the status stays
    /// PUBLISHING through a move).
    static func secondsAfterLastPublish(in events: [HeadlessRun.Event], scenario index: Int) -> Double {
        let starts = events.enumerated().filter { $0.element.kind == "scenario" && $0.element.details["result"] == nil }.map(\.offset)
        let ends = events.enumerated().filter { $0.element.kind == "scenario" && $0.element.details["result"] != nil }.map(\.offset)
        guard index < starts.count, index < ends.count else { return 0 }
        var previous: String?
        var published: Int64?
        for event in events[starts[index]...ends[index]] where event.side == "publisher" {
            if event.kind == "state", let status = event.details["status"] as? String {
                if status == "PUBLISHING" && previous != "PUBLISHING" { published = event.time }
                previous = status
            } else if event.text.hasPrefix("moved: publishing at") {
                published = event.time
            }
        }
        let end = events[ends[index]].time
        return Double(end - (published ?? end)) / 1000
    }
}
