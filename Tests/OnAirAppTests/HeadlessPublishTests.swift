import Foundation
import OnAirTestSupport
import Testing

/// `onair publish --headless` and `onair subscribe --headless`, as real processes, against stock peers.
@Suite("headless publish and subscribe against nginx-rtmp")
struct HeadlessPublishTests {
    @Test("OnAir publishes to nginx-rtmp; ffprobe reads h264 + aac at the size and rate sent; OnAir's subscriber decodes it")
    func publishThroughNginx() async throws {
        let nginx = try NginxRTMPServer()
        let directory = try TemporaryDirectory()
        let url = nginx.url(stream: "headless")
        let publisher = try HeadlessRun(
            ["publish", url, "--headless", "--video", "test", "--audio", "test", "--size", "640x360", "--fps", "25", "--duration", "120"],
            in: directory
        )
        let live = await publisher.waitFor { $0.kind == "state" && $0.details["status"] as? String == "PUBLISHING" }
        #expect(live != nil, "never PUBLISHING: \(publisher.peer.standardOutput) \(publisher.peer.standardError)")

        // Both runs last until the test has seen what it needs (were --duration 12 and 6, the publisher's run
        // a window ffprobe and the subscriber had to fit in on a loaded machine; issue 24).
        let subscriber = try HeadlessRun(["subscribe", url, "--headless", "--duration", "120"], in: directory)
        let probe = try await PeerProcess.run(
            "ffprobe", ["-v", "error", "-show_entries", "stream=codec_name,width,height,r_frame_rate,sample_rate", "-of", "json", url],
            in: directory.url, timeout: .seconds(60)
        )
        #expect(probe.status == 0, "ffprobe failed: \(probe.error)")
        let streams = try #require(
            (try JSONSerialization.jsonObject(with: Data(probe.output.utf8)) as? [String: Any])?["streams"] as? [[String: Any]]
        )
        let video = streams.first { $0["codec_name"] as? String == "h264" }
        let audio = streams.first { $0["codec_name"] as? String == "aac" }
        #expect(video?["width"] as? Int == 640)
        #expect(video?["height"] as? Int == 360)
        #expect(video?["r_frame_rate"] as? String == "25/1")
        #expect(audio?["sample_rate"] as? String == "48000")

        _ = await subscriber.waitFor(.seconds(60)) { $0.kind == "stats" && $0.details["framesDecoded"] as? Int ?? 0 >= 25 }
        subscriber.peer.stop()
        let (events, malformed) = subscriber.events
        #expect(malformed.isEmpty, "lines outside the schema: \(malformed)")
        #expect(events.contains { $0.kind == "status" && $0.text == "NetStream.Play.Start" })
        #expect(events.contains { $0.kind == "videoTrack" && $0.details["width"] as? Int == 640 })
        #expect(events.contains { $0.kind == "audioTrack" && $0.details["sampleRate"] as? Int == 48000 })
        let decoded = events.last { $0.kind == "stopped" }?.details["framesDecoded"] as? Int ?? 0
        #expect(decoded >= 25, "subscriber decoded only \(decoded) frames: \(subscriber.peer.standardOutput)")
        #expect(events.map(\.time) == events.map(\.time).sorted(), "event times go backwards")

        #expect(publisher.peer.stop() == 0, "publisher exit: \(publisher.peer.standardError)")
        #expect(publisher.events.malformed.isEmpty)
    }

    @Test("operator commands on stdin drive the same flows: call pauses video, decline stops and arms the tap")
    func stdinCommandsDriveThePolicy() async throws {
        let nginx = try NginxRTMPServer()
        let directory = try TemporaryDirectory()
        let pipe = Pipe()
        let publisher = try HeadlessRun(
            ["publish", nginx.url(stream: "keys"), "--headless", "--size", "320x180", "--policy", "tap-republish", "--duration", "180"],
            in: directory, standardInput: pipe.fileHandleForReading
        )
        #expect(await publisher.waitFor { $0.kind == "state" && $0.details["status"] as? String == "PUBLISHING" } != nil)
        pipe.fileHandleForWriting.write(Data("call\n".utf8))
        let paused = await publisher.waitFor { $0.kind == "state" && $0.details["pauseVideo"] as? Bool == true }
        #expect(paused?.details["lifecycle"] as? String == "INACTIVE")
        pipe.fileHandleForWriting.write(Data("decline\n".utf8))
        #expect(await publisher.waitFor { $0.kind == "toast" && $0.text == "Tap to Re-Publish!" } != nil)
        #expect(await publisher.waitFor { $0.kind == "state" && $0.details["status"] as? String == "AWAITING TAP" } != nil)
        pipe.fileHandleForWriting.write(Data("tap\n".utf8))
        let republished = await publisher.waitFor { event in
            event.kind == "state" && event.details["status"] as? String == "PUBLISHING" && event.time > (paused?.time ?? 0)
        }
        #expect(republished != nil, "no republish after tap: \(publisher.peer.standardOutput)")
        pipe.fileHandleForWriting.write(Data("quit\n".utf8))
        #expect(await publisher.peer.exitStatus(within: .seconds(20)) == 0)
    }
}

/// A server that dies and comes back: the publisher reconnects by itself (OBS-style backoff).
@Suite("publisher auto-reconnect")
struct PublisherReconnectTests {
    @Test("nginx-rtmp killed mid-publish and started again → RECONNECTING n/20 → PUBLISHING, and the stream plays again")
    func reconnectsAfterServerRestart() async throws {
        let nginx = try NginxRTMPServer()
        let directory = try TemporaryDirectory()
        let url = nginx.url(stream: "comeback")
        // --duration only ends a run the test did not (was 40 s for a server restart and a backoff; issue 24).
        let publisher = try HeadlessRun(["publish", url, "--headless", "--size", "320x180", "--duration", "180"], in: directory)
        let first = await publisher.waitFor { $0.kind == "state" && $0.details["status"] as? String == "PUBLISHING" }
        #expect(first != nil, "never published: \(publisher.peer.standardError)")

        nginx.stop()
        let reconnecting = await publisher.waitFor { ($0.details["status"] as? String)?.hasPrefix("RECONNECTING 1/20") == true }
        #expect(reconnecting != nil, "no reconnect after the server died: \(publisher.peer.standardOutput)")
        try nginx.restart()

        let again = await publisher.waitFor(.seconds(90)) { event in
            event.kind == "state" && event.details["status"] as? String == "PUBLISHING" && event.time > (reconnecting?.time ?? .max)
        }
        #expect(again != nil, "did not publish again after the restart: \(publisher.peer.standardOutput)")
        let probe = try await PeerProcess.run(
            "ffprobe", ["-v", "error", "-show_entries", "stream=codec_name", "-of", "csv=p=0", url],
            in: directory.url, timeout: .seconds(60)
        )
        #expect(probe.output.contains("h264") && probe.output.contains("aac"), "after the restart ffprobe saw: \(probe.output) \(probe.error)")
        publisher.peer.stop()
    }
}
