import Foundation
import OnAirTestSupport
import Testing

/// `onair publish --headless --abr … --link-cap …` as a real process against nginx-rtmp. The throughput
/// ABR measures must be the link's, not the machine's: the suite runs in `make test`'s serial phase (issue 24),
/// and each run lasts until the test has its `abr` event (was --duration 8 and 10 s, a window to step down in).
@Suite("headless publish with adaptive bitrate through a capped link")
struct HeadlessAdaptiveBitrateTests {
    @Test("through a 200k link, throughput ABR steps the 2500k target down, says why, and the link event shows the cap")
    func throughputStepsDown() async throws {
        let nginx = try NginxRTMPServer()
        defer { nginx.stop() }
        let directory = try TemporaryDirectory()
        let publisher = try HeadlessRun(
            ["publish", nginx.url(stream: "abr"), "--headless", "--video", "test", "--audio", "test", "--size", "640x360",
             "--bitrate", "2500k", "--abr", "throughput", "--link-cap", "200k", "--duration", "120"],
            in: directory)
        let link = await publisher.waitFor { $0.kind == "link" }
        #expect(link?.details["state"] as? String == "up cap 200k")
        let step = await publisher.waitFor { $0.kind == "abr" }
        let details = try #require(step?.details, "no abr event: \(publisher.peer.standardError)")
        #expect(details["old"] as? String == "2500k@30fps")
        #expect((details["newBitrate"] as? Int ?? .max) < 2_500_000)
        #expect(["queue-delay", "drops"].contains(details["reason"] as? String ?? ""))
        // The throughput that led to it was measured on the capped link: at most the cap, and not nothing.
        let throughput = details["throughput"] as? Int ?? -1
        #expect(throughput > 100_000 && throughput <= 230_000, "throughput \(throughput)")
        #expect(publisher.peer.stop() == 0, "publisher: \(publisher.peer.standardError)")
        #expect(publisher.events.malformed.isEmpty, "lines outside the schema: \(publisher.events.malformed)")
    }

    @Test("against onair serve, ladder ABR steps one rung down (2500k → 1875k) through a 200k link")
    func ladderAgainstEmbeddedRelay() async throws {
        let directory = try TemporaryDirectory(prefix: "onair-abr")
        let port = try FreePort.loopback()
        let serve = try PeerProcess(OnAirBinary.url.path, ["serve", "--listen", "127.0.0.1:\(port)", "--headless"], in: directory.url)
        defer { serve.stop(signal: SIGKILL) }
        try FreePort.waitUntilAccepting(port, what: "onair serve")
        let publisher = try HeadlessRun(
            ["publish", "rtmp://127.0.0.1:\(port)/live/ladder", "--headless", "--video", "test", "--audio", "test",
             "--size", "640x360", "--bitrate", "2500k", "--abr", "ladder", "--link-cap", "200k", "--duration", "120"],
            in: directory)
        let step = await publisher.waitFor { $0.kind == "abr" }
        let details = try #require(step?.details, "no abr event: \(publisher.peer.standardError)")
        #expect(details["old"] as? String == "2500k@30fps")
        #expect(details["new"] as? String == "1875k@30fps")
        #expect(details["link"] as? String == "up cap 200k")
        let throughput = details["throughput"] as? Int ?? -1
        #expect(throughput > 100_000 && throughput <= 230_000, "throughput \(throughput)")
        #expect(publisher.peer.stop() == 0, "publisher: \(publisher.peer.standardError)")
        #expect(publisher.events.malformed.isEmpty, "lines outside the schema: \(publisher.events.malformed)")
    }
}
