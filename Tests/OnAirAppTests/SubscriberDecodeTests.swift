import Foundation
import OnAirTestSupport
import Testing

/// The subscriber's decoders against stock peers: every frame a B-frame encoder sends through nginx-rtmp is
/// decoded, from the first keyframe to the last (issue 18 items 1 and 4).
@Suite("subscriber decoding behind stock peers")
struct SubscriberDecodeTests {
    // The subscribers run until the test stops them; --duration (was 40 s) is only a backstop (issue 24).
    /// The `stopped` event's counters of a finished headless subscriber.
    struct Counts {
        var packets: Int
        var decoded: Int
        var beforeKeyframe: Int

        init(_ run: HeadlessRun) {
            let stopped = run.events.events.last { $0.kind == "stopped" }?.details ?? [:]
            packets = stopped["videoPackets"] as? Int ?? 0
            decoded = stopped["framesDecoded"] as? Int ?? 0
            beforeKeyframe = stopped["skippedAwaitingKeyframe"] as? Int ?? 0
        }

        /// Packets from the first keyframe on, which must all become pictures.
        var decodable: Int { packets - beforeKeyframe }
    }

    @Test("ffmpeg -bf 2 -g 60 → nginx-rtmp → onair subscribe: all 240 frames decoded, the first keyframe interval and the last reordered frames too")
    func bFramesThroughNginx() async throws {
        let nginx = try NginxRTMPServer()
        let directory = try TemporaryDirectory()
        let url = nginx.url(stream: "bframes")
        let subscriber = try HeadlessRun(["subscribe", url, "--headless", "--duration", "300"], in: directory)
        #expect(await subscriber.waitFor { $0.kind == "status" && $0.text == "NetStream.Play.Start" } != nil)

        // nginx sends "onMetaData, V header, V key, V …, A header, A …": the audio header arrives after the
        // video keyframe, which a decoder rebuilt for every track event would throw away.
        let ffmpeg = try PeerProcess("ffmpeg", [
            "-nostdin", "-v", "error", "-re", "-f", "lavfi", "-i", "testsrc2=size=640x360:rate=30", "-f", "lavfi", "-i", "sine",
            "-t", "8", "-c:v", "libx264", "-preset", "veryfast", "-bf", "2", "-g", "60", "-c:a", "aac", "-f", "flv", url,
        ], in: directory.url)
        #expect(await ffmpeg.exitStatus(within: .seconds(60)) == 0, "ffmpeg: \(ffmpeg.standardError)")
        let unpublished = await subscriber.waitFor { $0.kind == "status" && $0.text == "NetStream.Play.UnpublishNotify" }
        #expect(unpublished != nil, "no UnpublishNotify: \(subscriber.peer.standardOutput.suffix(2000))")
        // The decoder thread drains after the unpublish on its own time: wait for a `stats` event that shows it
        // done (was a 1 s sleep, which a loaded machine can outlast; issue 24). Not met, the counts below fail.
        _ = await subscriber.waitFor(.seconds(60)) { event in
            guard event.kind == "stats", let packets = event.details["videoPackets"] as? Int, packets == 240 else { return false }
            return event.details["framesDecoded"] as? Int == packets - (event.details["skippedAwaitingKeyframe"] as? Int ?? 0)
        }
        subscriber.peer.stop()

        let counts = Counts(subscriber)
        #expect(counts.packets == 240, "ffmpeg sent 8 s × 30 fps = 240 frames; the subscriber received \(counts.packets)")
        #expect(counts.beforeKeyframe == 0, "the stream starts with a keyframe; \(counts.beforeKeyframe) packets waited for one")
        #expect(counts.decoded == counts.decodable, "decoded \(counts.decoded) of \(counts.decodable) frames from the first keyframe on")
        let tracks = subscriber.events.events.filter { $0.kind == "videoTrack" }
        #expect(tracks.count == 1 && tracks.first?.details["fps"] as? Double == 30, "videoTrack events: \(tracks.map(\.details))")
    }

    @Test("a 4112×2320 H.264 stream (over the 4096×2304 bound) through nginx: one notice, no picture decoded, audio decoded, RSS bounded")
    func oversizedPictureRefused() async throws {
        let nginx = try NginxRTMPServer()
        let directory = try TemporaryDirectory()
        let url = nginx.url(stream: "huge")
        let subscriber = try HeadlessRun(["subscribe", url, "--headless", "--duration", "300"], in: directory)
        #expect(await subscriber.waitFor { $0.kind == "status" && $0.text == "NetStream.Play.Start" } != nil)
        let ffmpeg = try PeerProcess("ffmpeg", [
            "-nostdin", "-v", "error", "-re", "-f", "lavfi", "-t", "3", "-i", "color=c=blue:size=4112x2320:rate=5",
            "-f", "lavfi", "-t", "3", "-i", "sine", "-c:v", "libx264", "-preset", "ultrafast", "-c:a", "aac", "-f", "flv", url,
        ], in: directory.url)
        var memory = ResidentMemory()
        while ffmpeg.isRunning {
            ResidentMemory.kilobytes(of: subscriber.peer.processIdentifier).map { memory.record($0) }
            try await Task.sleep(for: .milliseconds(100))
        }
        #expect(ffmpeg.terminationStatus == 0, "ffmpeg: \(ffmpeg.standardError)")
        _ = await subscriber.waitFor { $0.kind == "status" && $0.text == "NetStream.Play.UnpublishNotify" }
        // Audio decoding catches up on its own time: wait for the `stats` event that shows it (was a 1.5 s sleep;
        // issue 24). Not met, the `stopped` check below fails.
        _ = await subscriber.waitFor(.seconds(60)) { $0.kind == "stats" && $0.details["audioFramesDecoded"] as? Int ?? 0 > 100 }
        subscriber.peer.stop()

        let notices = subscriber.events.events.filter { $0.kind == "notice" }.map(\.text)
        #expect(notices.filter { $0.contains("4112×2320") && $0.contains("4096×2304") }.count == 1, "notices: \(notices)")
        let stopped = subscriber.events.events.last { $0.kind == "stopped" }?.details ?? [:]
        #expect(stopped["framesDecoded"] as? Int == 0, "\(stopped)")
        #expect(stopped["audioFramesDecoded"] as? Int ?? 0 > 100, "audio must go on: \(stopped)")
        #expect(memory.maximum < 200_000, "subscriber peak RSS \(memory.maximum) kB")
        print("oversized picture: subscriber peak RSS \(memory.maximum) kB")
    }

    @Test("stock encoders' other H.264 profiles through nginx-rtmp (High 4:4:4, High 4:2:2 10-bit, High 10, full-range 4:2:0): every frame decoded and previewed, no error")
    func otherProfiles() async throws {
        let nginx = try NginxRTMPServer()
        let directory = try TemporaryDirectory()
        for pixelFormat in ["yuv444p", "yuv422p10le", "yuv420p10le", "yuv444p10le", "gray"] {    // gray: x264 writes yuvj420p
            let url = nginx.url(stream: pixelFormat)
            let subscriber = try HeadlessRun(["subscribe", url, "--headless", "--duration", "300"], in: directory)
            #expect(await subscriber.waitFor { $0.kind == "status" && $0.text == "NetStream.Play.Start" } != nil)
            let ffmpeg = try PeerProcess("ffmpeg", [
                "-nostdin", "-v", "error", "-re", "-f", "lavfi", "-i", "testsrc2=size=322x178:rate=30", "-t", "2", "-pix_fmt", pixelFormat,
                "-c:v", "libx264", "-preset", "ultrafast", "-g", "30", "-f", "flv", url,
            ], in: directory.url)
            #expect(await ffmpeg.exitStatus(within: .seconds(60)) == 0, "ffmpeg: \(ffmpeg.standardError)")
            let done = await subscriber.waitFor(.seconds(60)) { event in
                event.kind == "stats" && event.details["videoPackets"] as? Int == 60 && event.details["framesDecodedTotal"] as? Int == 60
            }
            subscriber.peer.stop()
            #expect(done != nil, "\(pixelFormat): \(subscriber.events.events.last { $0.kind == "stats" }?.details ?? [:])")
            // A picture decoded but not converted for the preview is a decode error the stats carry.
            let failed = subscriber.events.events.filter { $0.kind == "error" || $0.kind == "notice" || $0.details["decodeError"] != nil }
            #expect(failed.isEmpty, "\(pixelFormat): \(failed.map(\.details))")
        }
    }
}
