import Foundation
import OnAirTestSupport
import Testing

/// The lift of `KernelLinkLiftTests` through OnAir's own link stage, as the demo and `--link-cap` rehearse
/// it: `onair publish --abr throughput --link-cap 800k` to nginx-rtmp, the cap lifted (`link-uncap` on stdin)
/// the moment the fifth step down comes (three probes have failed, the backoff is at its longest). The stage's
/// cap shows to the publisher's kernel as a receive window it waits on, which the path's queueing counts, so
/// a held-back burst tells a lifted stage from a capped one as it tells a real link's. Without bursts on the
/// stage the next probe waits out the backoff: 24–33 s after the failed probe (a shipped scenario missed its
/// 30 s that way); with them, about 10 s.
///
/// A real-time run of about two minutes: in `make test-long`, one suite at a time.
@Suite("ABR finds a lifted stage cap right after a failed probe (link stage, nginx-rtmp)", .serialized)
struct StageLinkLiftTests {
    static let bitrate = 2_500_000

    @Test("--abr throughput --link-cap 800k, the cap lifted right after a failed probe: back to 90 % of 2500k within 20 s")
    func liftRightAfterFailedProbe() async throws {
        let directory = try TemporaryDirectory(prefix: "onair-stage-lift")
        let nginx = try NginxRTMPServer()
        defer { nginx.stop() }
        let stdin = Pipe()
        let publisher = try HeadlessRun(
            ["publish", nginx.url(stream: "lift"), "--headless", "--video", "grain", "--audio", "test", "--size", "640x360",
             "--bitrate", "2500k", "--abr", "throughput", "--link-cap", "800k", "--duration", "240"],
            in: directory, standardInput: stdin.fileHandleForReading)
        defer { _ = publisher.peer.stop(signal: SIGKILL) }

        let failure = await publisher.waitForStepDown(number: 5, within: .seconds(180))
        let failed = try #require(failure, "no fifth step down under the cap: \(publisher.abrLog()) \(publisher.peer.standardError.suffix(2000))")
        stdin.fileHandleForWriting.write(Data("link-uncap\n".utf8))
        let lifted = await publisher.waitFor(.seconds(30)) { $0.kind == "link" && $0.details["command"] as? String == "link-uncap" }
        #expect(lifted?.details["state"] as? String == "up", "the stage did not lift: \(String(describing: lifted?.details))")
        let back = await publisher.waitForRecovery(to: Self.bitrate, after: failed)
        let (recovered, seconds) = try #require(back, "never back to 90 % of 2500k: \(publisher.abrLog())")
        print("stage lift: failed probe at \(failed.time) ms, lifted at \(lifted?.time ?? -1) ms, back to \(recovered.details["new"] ?? "?") \(seconds) s after the failed probe; abr: \(publisher.abrLog(since: failed.time - 30_000))")
        // About 10 s with bursts; the backed-off probe alone comes 24 s or more after the failed one.
        #expect(seconds <= 20, "back to 90 % only \(seconds) s after the failed probe: \(publisher.abrLog(since: failed.time))")
        stdin.fileHandleForWriting.write(Data("quit\n".utf8))
        await publisher.peer.exitStatus(within: .seconds(20))
        #expect(publisher.events.malformed.isEmpty, "lines outside the schema: \(publisher.events.malformed)")
    }
}
