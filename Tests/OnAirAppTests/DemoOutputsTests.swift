import Foundation
import OnAirTestSupport
import Testing

/// Issue 30: `onair demo` with several destinations — `--server` repeated (the first is played) and
/// `--also-publish` beside the embedded relay — publishes its one encode to each, against real nginx-rtmp
/// on loopback, and the server commands that name an output act only where that output's server is one
/// of the demo's own relays.
@Suite("demo with several destinations")
struct DemoOutputsTests {
    /// Video packets ffprobe reads from `url` within its timeout: the server really carries the stream.
    static func videoPackets(at url: String, in directory: TemporaryDirectory) async throws -> Int {
        let probe = try await PeerProcess.run("ffprobe", [
            "-v", "error", "-rw_timeout", "20000000", "-read_intervals", "%+3", "-select_streams", "v",
            "-show_entries", "packet=dts_time", "-of", "csv=p=0", url,
        ], in: directory.url, timeout: .seconds(120))
        return probe.output.split(separator: "\n").count
    }

    @Test("--server A --server B: the subscriber plays A, output 2 publishes to B, and ffprobe reads video from both")
    func repeatedServer() async throws {
        let servers = [try NginxRTMPServer(), try NginxRTMPServer()]
        let directory = try TemporaryDirectory()
        let pipe = Pipe()
        let demo = try HeadlessRun(
            ["demo", "--headless", "--server", servers[0].url(stream: "one"), "--server", servers[1].url(stream: "two"),
             "--size", "320x180", "--fps", "15", "--bitrate", "300k", "--duration", "300"],
            in: directory, standardInput: pipe.fileHandleForReading)
        let started = await demo.waitFor(.seconds(120)) { $0.kind == "started" }
        #expect(started?.details["outputs"] as? Int == 2, "\(started.map { "\($0.details)" } ?? "no started event")")
        let live = await demo.waitFor(.seconds(120)) { event in
            event.kind == "output" && event.details["output"] as? Int == 2 && event.details["state"] as? String == "PUBLISHING"
        }
        let serverB = servers[1].url(stream: "two").replacingOccurrences(of: "live/two", with: "")
        #expect((live?.details["url"] as? String)?.hasPrefix(serverB) == true,
                "output 2 never live, or its URL is not B's redacted: \(live.map { "\($0.details)" } ?? demo.peer.standardOutput.suffix(2000).description)")
        let playing = await demo.waitFor(.seconds(120)) { $0.side == "subscriber" && $0.kind == "state" && $0.details["connection"] as? String == "PLAYING" }
        #expect(playing != nil, "the subscriber never played server A")
        #expect(try await Self.videoPackets(at: servers[0].url(stream: "one"), in: directory) > 10, "server A carries no video")
        #expect(try await Self.videoPackets(at: servers[1].url(stream: "two"), in: directory) > 10, "server B carries no video")

        // Output 2's server is not the demo's: a server command naming it is refused with the reason.
        pipe.fileHandleForWriting.write(Data("server-stall 3s 2\nserver-stall 3s 3\n".utf8))
        let notRelay = await demo.waitFor(.seconds(60)) { $0.kind == "error" && $0.text.hasPrefix("server-stall: output 2") }
        #expect(notRelay?.text == "server-stall: output 2 has no embedded relay (its server is one given with --server)", "\(notRelay?.text ?? "no refusal")")
        let noOutput = await demo.waitFor(.seconds(60)) { $0.kind == "error" && $0.text.hasPrefix("server-stall: no output 3") }
        #expect(noOutput != nil, "server-stall 3s 3 was not refused")
        pipe.fileHandleForWriting.write(Data("quit\n".utf8))
        #expect(await demo.peer.exitStatus(within: .seconds(60)) == 0)
    }

    @Test("--also-publish B beside the embedded relay: output 1 is the relay, output 2 publishes to B")
    func alsoPublish() async throws {
        let server = try NginxRTMPServer()
        let directory = try TemporaryDirectory()
        let demo = try HeadlessRun(
            ["demo", "--headless", "--also-publish", server.url(stream: "two"), "--record-dir", directory.file("rec").path,
             "--size", "320x180", "--fps", "15", "--bitrate", "300k", "--duration", "300"],
            in: directory)
        let started = await demo.waitFor(.seconds(120)) { $0.kind == "started" }
        #expect(started?.details["relay"] as? Bool == true && started?.details["outputs"] as? Int == 2, "\(started.map { "\($0.details)" } ?? "none")")
        let live = await demo.waitFor(.seconds(120)) { event in
            event.kind == "output" && event.details["output"] as? Int == 2 && event.details["state"] as? String == "PUBLISHING"
        }
        #expect(live != nil, "output 2 never live: \(demo.peer.standardOutput.suffix(2000))")
        #expect(try await Self.videoPackets(at: server.url(stream: "two"), in: directory) > 10, "the further server carries no video")
        _ = demo.peer.stop(signal: SIGINT)
    }
}
