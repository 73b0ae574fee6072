import Foundation
import OnAirTestSupport
import Testing

/// `onair publish URL URL`: one destination refuses (a relay that wants another key), the other carries the
/// broadcast. The refusing output is retried with its own backoff, its key never shows, and the other
/// output neither stops nor drops (docs/multi-destination.md). Usage errors of several URLs exit 2.
@Suite("one broadcast, several destinations: a refusing destination, following the broadcast, usage")
struct MultiDestinationRefusalTests {
    @Test("a destination that refuses is retried with backoff (2 s, then 3 s) while the other stays PUBLISHING and drops nothing")
    func refusingDestinationIsRetried() async throws {
        let nginx = try NginxRTMPServer()
        let directory = try TemporaryDirectory()
        let relayPort = try FreePort.loopback()
        let relay = try HeadlessRun(
            ["serve", "--listen", "127.0.0.1:\(relayPort)", "--publish-key", "right-key", "--headless"], in: directory)
        try FreePort.waitUntilAccepting(relayPort, timeout: .seconds(60), what: "onair serve")
        let secret = "WrongKey8c1f2b"
        let publisher = try HeadlessRun(
            ["publish", nginx.url(stream: "good"), "rtmp://127.0.0.1:\(relayPort)/live/refused?key=\(secret)",
             "--headless", "--video", "test", "--audio", "test", "--size", "320x240", "--fps", "25", "--duration", "600"],
            in: directory)
        // Two refusals in a row, each retried: the second is scheduled 3 s after it (OBS's 2 s × 1.5, plus
        // the output's own jitter of up to 0.05 in the factor).
        let second = await publisher.waitFor(.seconds(120)) { event in
            event.kind == "output" && event.details["output"] as? Int == 2 && event.text.contains("reconnect 2/20 in ")
        }
        #expect(second != nil, "output 2 was not retried twice: \(publisher.peer.standardOutput.suffix(3000))")
        let delay = second.flatMap { Int($0.text.split(separator: " ").dropLast().last ?? "") } ?? 0
        #expect((3000...3100).contains(delay), "second retry after \(delay) ms: \(second?.text ?? "")")
        #expect(publisher.peer.isRunning, "the run ended on output 2's refusal: \(publisher.peer.standardError)")
        let firstStats = publisher.events.events.filter { $0.kind == "outputStats" && $0.details["output"] as? Int == 1 }
        #expect(firstStats.last?.details["state"] as? String == "PUBLISHING")
        #expect((firstStats.last?.details["framesSent"] as? Int ?? 0) > 0)
        #expect(firstStats.allSatisfy { ($0.details["droppedVideo"] as? Int ?? 1) == 0 })
        #expect(!publisher.events.events.contains { $0.kind == "state" && ($0.details["status"] as? String ?? "").hasPrefix("RECONNECTING") },
            "output 1 reconnected because of output 2")
        _ = publisher.peer.stop()
        _ = relay.peer.stop()
        #expect(!publisher.peer.standardOutput.contains(secret), "output 2's key leaked into the events")
        #expect(publisher.events.events.contains { $0.kind == "output" && ($0.details["url"] as? String ?? "").hasSuffix("refused?key=***") })
    }

    @Test("further outputs follow the broadcast: a declined call's stop stops output 2, the tap publishes it again")
    func furtherOutputsFollowTheBroadcast() async throws {
        let servers = [try NginxRTMPServer(), try NginxRTMPServer()]
        let directory = try TemporaryDirectory()
        let pipe = Pipe()
        let publisher = try HeadlessRun(
            ["publish", servers[0].url(stream: "one"), servers[1].url(stream: "two"), "--headless", "--size", "320x180",
             "--policy", "tap-republish", "--duration", "300"],
            in: directory, standardInput: pipe.fileHandleForReading)
        func output2(_ state: String, after time: Int64) async -> HeadlessRun.Event? {
            await publisher.waitFor(.seconds(120)) { event in
                event.kind == "output" && event.details["output"] as? Int == 2 && event.details["state"] as? String == state && event.time > time
            }
        }
        let live = await output2("PUBLISHING", after: -1)
        #expect(live != nil, "output 2 never live: \(publisher.peer.standardOutput.suffix(2000))")
        pipe.fileHandleForWriting.write(Data("call\ndecline\n".utf8))
        let stopped = await output2("IDLE", after: live?.time ?? 0)
        #expect(stopped?.text == "stopped", "output 2 did not stop with the broadcast: \(publisher.peer.standardOutput.suffix(2000))")
        #expect(await publisher.waitFor { $0.kind == "state" && $0.details["status"] as? String == "AWAITING TAP" } != nil)
        pipe.fileHandleForWriting.write(Data("tap\n".utf8))
        let again = await output2("PUBLISHING", after: stopped?.time ?? .max)
        #expect(again != nil, "output 2 did not publish again after the tap: \(publisher.peer.standardOutput.suffix(2000))")
        pipe.fileHandleForWriting.write(Data("quit\n".utf8))
        let status = await publisher.peer.exitStatus(within: .seconds(30))
        #expect(status == 0, "quit: exit \(status) (stopped by the test if not within 30 s); \(publisher.peer.standardError.suffix(1000)) \(publisher.peer.standardOutput.suffix(1500))")
    }

    @Test("a bad further URL, or --link-cap with several URLs, is a usage error (exit 2) naming the problem")
    func usageErrors() throws {
        let bad = try OnAirBinary.run(["publish", "rtmp://127.0.0.1:1935/live/a", "http://example.com/x", "--headless", "--duration", "1"])
        #expect(bad.status == 2, "exit \(bad.status): \(bad.standardError)")
        #expect(bad.standardError.contains("onair publish:"))
        let link = try OnAirBinary.run(
            ["publish", "rtmp://127.0.0.1:1935/live/a", "rtmp://127.0.0.1:1936/live/b", "--link-cap", "500k", "--headless", "--duration", "1"])
        #expect(link.status == 2, "exit \(link.status): \(link.standardError)")
        #expect(link.standardError.contains("give one URL with it"))
    }
}
