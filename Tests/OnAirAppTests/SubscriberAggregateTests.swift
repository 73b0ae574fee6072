import Foundation
import NIOCore
import OnAirRTMP
import OnAirTestSupport
import Testing

/// Issue 27: a server of the Red5/Wowza family sends media to players as aggregate messages (RTMP spec
/// §7.1.6). Before, `onair subscribe` showed Play.Start and then waited for a publisher for the whole
/// stream, 0 frames decoded; now every frame of a real encoded FLV is decoded, in both timestamp styles.
@Suite("subscriber against a server that sends aggregate messages")
struct SubscriberAggregateTests {
    /// 5 s × 30 fps of H.264 + AAC, encoded by ffmpeg into an FLV in `directory`.
    static func encodedTags(in directory: TemporaryDirectory) async throws -> [FLVTag] {
        let path = directory.url.appendingPathComponent("source.flv").path
        let ffmpeg = try PeerProcess("ffmpeg", [
            "-nostdin", "-v", "error", "-f", "lavfi", "-i", "testsrc2=size=320x180:rate=30", "-f", "lavfi", "-i", "sine",
            "-t", "5", "-c:v", "libx264", "-preset", "ultrafast", "-g", "30", "-pix_fmt", "yuv420p", "-c:a", "aac", "-f", "flv", path,
        ], in: directory.url)
        #expect(await ffmpeg.exitStatus(within: .seconds(120)) == 0, "ffmpeg: \(ffmpeg.standardError)")
        let file = try FLVFileReader.readAll(bytes: Data(contentsOf: URL(fileURLWithPath: path)))
        #expect(!file.isTruncated)
        return file.tags
    }

    @Test("every one of the FLV's 150 frames is decoded, inner timestamps relative or absolute",
          arguments: AggregateTestServer.Style.allCases)
    func everyFrameDecoded(style: AggregateTestServer.Style) async throws {
        let directory = try TemporaryDirectory()
        let tags = try await Self.encodedTags(in: directory)
        let frames = tags.filter { $0.type == .video && ($0.data.getInteger(at: $0.data.readerIndex + 1, as: UInt8.self) ?? 0) == 1 }.count
        #expect(frames == 150)
        let server = try await AggregateTestServer(tags: tags, style: style)
        defer { Task { await server.stop() } }

        let subscriber = try HeadlessRun(["subscribe", "rtmp://127.0.0.1:\(server.port)/vod/sample", "--headless", "--duration", "60"], in: directory)
        let unpublished = await subscriber.waitFor(.seconds(60)) { $0.kind == "status" && $0.text == "NetStream.Play.UnpublishNotify" }
        #expect(unpublished != nil, "no UnpublishNotify: \(subscriber.peer.standardOutput.suffix(2000))")
        try await Task.sleep(for: .seconds(1))
        subscriber.peer.stop()

        let events = subscriber.events.events
        let stopped = events.last { $0.kind == "stopped" }?.details ?? [:]
        #expect(stopped["videoPackets"] as? Int == frames, "\(stopped)")
        #expect(stopped["framesDecoded"] as? Int == frames, "\(stopped)")
        #expect(stopped["audioFramesDecoded"] as? Int ?? 0 > 200, "\(stopped)")
        #expect(events.filter { $0.kind == "warning" }.isEmpty, "\(events.filter { $0.kind == "warning" }.map(\.text))")
        let track = events.first { $0.kind == "videoTrack" }?.details ?? [:]
        #expect(track["width"] as? Int == 320, "\(track)")
    }

    @Test("a whole file in one burst (385 packets, the decoder's queue holds 90): the player's task waits for the decoder, no frame is lost")
    func burstIsPacedNotDropped() async throws {
        let directory = try TemporaryDirectory()
        let tags = try await Self.encodedTags(in: directory)
        let server = try await AggregateTestServer(tags: tags, style: .absolute, burst: true)
        defer { Task { await server.stop() } }
        let subscriber = try HeadlessRun(["subscribe", "rtmp://127.0.0.1:\(server.port)/vod/sample", "--headless", "--duration", "60"], in: directory)
        // UnpublishNotify follows the last packet, and the player's task hands it to the loop only once every
        // packet before it is in the decoder's queue; stopping decodes what is queued.
        let unpublished = await subscriber.waitFor(.seconds(60)) { $0.kind == "status" && $0.text == "NetStream.Play.UnpublishNotify" }
        #expect(unpublished != nil, "no UnpublishNotify: \(subscriber.peer.standardOutput.suffix(2000))")
        subscriber.peer.stop()
        let events = subscriber.events.events
        let stopped = events.last { $0.kind == "stopped" }?.details ?? [:]
        #expect(stopped["framesDecoded"] as? Int == 150, "\(stopped)")
        #expect(stopped["audioFramesDecoded"] as? Int ?? 0 > 200, "\(stopped)")
        // A drop is never silent: the decoder queue's drops are in `stats` (they read 57 video when a late
        // wake let the player's task overflow the queue, issue 25).
        #expect(stopped["droppedVideoPackets"] as? Int == 0 && stopped["droppedAudioPackets"] as? Int == 0, "\(stopped)")
        #expect(events.filter { $0.kind == "warning" }.isEmpty, "\(events.filter { $0.kind == "warning" }.map(\.text))")
    }

    @Test("messages a player cannot use (a shared object, type 30) are one warning per type, never silence and never a flood")
    func oneWarningPerType() async throws {
        let directory = try TemporaryDirectory()
        let tags = Array(try await Self.encodedTags(in: directory).prefix(60))
        let server = try await AggregateTestServer(tags: tags, style: .absolute, noise: true)
        defer { Task { await server.stop() } }
        let subscriber = try HeadlessRun(["subscribe", "rtmp://127.0.0.1:\(server.port)/vod/sample", "--headless", "--duration", "60"], in: directory)
        let unpublished = await subscriber.waitFor(.seconds(60)) { $0.kind == "status" && $0.text == "NetStream.Play.UnpublishNotify" }
        #expect(unpublished != nil, "no UnpublishNotify: \(subscriber.peer.standardOutput.suffix(2000))")
        subscriber.peer.stop()
        let warnings = subscriber.events.events.filter { $0.kind == "warning" }.map(\.text)
        #expect(warnings.count == 2, "\(warnings)")
        #expect(warnings.contains { $0.contains("type 19") } && warnings.contains { $0.contains("type 30") }, "\(warnings)")
        let stopped = subscriber.events.events.last { $0.kind == "stopped" }?.details ?? [:]
        #expect(stopped["framesDecoded"] as? Int ?? 0 > 0, "the media around them still plays: \(stopped)")
    }
}
