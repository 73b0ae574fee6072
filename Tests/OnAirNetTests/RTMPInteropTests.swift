import Foundation
import OnAirTestSupport
import OnAirCore
import OnAirNet
import OnAirRTMP
import Synchronization
import Testing

/// OnAir's publisher and player against real peers: nginx-rtmp, ffmpeg, ffprobe and rtmpdump.
@Suite("RTMP interop with real peers", .serialized, .timeLimit(.minutes(2)))
struct RTMPInteropTests {
    /// Sends packets in real time (like `ffmpeg -re`), so live readers see a live stream.
    static func publishPaced(_ packets: [EncodedPacket], with publisher: RTMPPublisher) async throws {
        let clock = ContinuousClock()
        let start = clock.now
        let first = packets.first?.decodeTimestamp ?? 0
        for packet in packets {
            try await clock.sleep(until: start + .milliseconds(packet.decodeTimestamp - first))
            try await publisher.send(packet)
        }
    }

    @Test("OnAir publishes to nginx-rtmp; ffprobe sees h264 640x360@30 + aac; rtmpdump records a decodable FLV")
    func publishToNginx() async throws {
        let directory = try TestEnvironment.makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let source = try FLVSource(contentsOf: try await TestEnvironment.makeTestFLV(in: directory, seconds: 7),
                                   width: 640, height: 360, framesPerSecond: 30)
        let nginx = try NginxRTMPServer()
        defer { nginx.stop() }
        let url = nginx.url(stream: "onair1")
        let publisher = RTMPPublisher(url: try StreamURL(url))
        try await publisher.start(type: .live, video: source.video, audio: source.audio)
        let ffprobe = try PeerProcess("ffprobe", ["-v", "error", "-show_streams", url], in: directory)
        defer { ffprobe.stop() }
        let rtmpdump = try PeerProcess("timeout", ["-s", "INT", "5", "rtmpdump", "--live", "-r", url, "-o", "rec.flv"],
                                       in: directory)
        defer { rtmpdump.stop() }
        try await Self.publishPaced(source.packets, with: publisher)
        let probeStatus = await ffprobe.waitForExit(within: .seconds(20))
        _ = await rtmpdump.waitForExit(within: .seconds(10))
        await publisher.stop()

        #expect(probeStatus == 0, "ffprobe: \(ffprobe.standardError)")
        let probe = ffprobe.standardOutput
        #expect(probe.contains("codec_name=h264"))
        #expect(probe.contains("codec_name=aac"))
        #expect(probe.contains("width=640"))
        #expect(probe.contains("height=360"))
        #expect(probe.contains("r_frame_rate=30/1"))
        #expect(probe.contains("sample_rate=44100"))

        let recording = directory.appendingPathComponent("rec.flv")
        let size = (try? FileManager.default.attributesOfItem(atPath: recording.path)[.size] as? Int) ?? 0
        #expect(size > 0, "rtmpdump recorded nothing: \(rtmpdump.standardError)")
        let decode = try await TestEnvironment.run("ffmpeg", ["-v", "error", "-i", recording.path, "-f", "null", "-"], in: directory)
        #expect(decode.status == 0)
        #expect(decode.stderr.isEmpty, "ffmpeg decode errors: \(decode.stderr)")
        // rtmpdump records for 5 s of wall clock, its own start-up included: count what it got, not bytes.
        let frames = try await TestEnvironment.run("ffprobe", [
            "-v", "error", "-count_frames", "-select_streams", "v:0", "-show_entries", "stream=nb_read_frames", "-of", "csv=p=0", recording.path,
        ], in: directory)
        let decoded = Int(frames.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
        #expect(decoded >= 30, "rtmpdump's recording decodes \(decoded) video frames (\(size) bytes): \(rtmpdump.standardError)")
    }

    @Test("ffmpeg publishes to nginx-rtmp; OnAir's player gets PublishNotify, metadata, sequence headers, monotonic frames, UnpublishNotify")
    func playFromNginx() async throws {
        let directory = try TestEnvironment.makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let nginx = try NginxRTMPServer()
        defer { nginx.stop() }
        let url = nginx.url(stream: "ff1")
        let player = RTMPPlayer(url: try StreamURL(url))
        try await player.start()
        let events = try await TestEnvironment.playWhileFFmpegPublishes(player, to: url, in: directory)

        let codes = events.compactMap { if case .status(let status) = $0 { status.code } else { nil } }
        let publishNotify = try #require(codes.firstIndex(of: .playPublishNotify), "statuses: \(codes)")
        let unpublishNotify = try #require(codes.firstIndex(of: .playUnpublishNotify), "statuses: \(codes)")
        #expect(publishNotify < unpublishNotify)
        let metadata = try #require(events.lazy.compactMap { if case .metadata(let value) = $0 { value } else { nil } }.first)
        #expect(metadata["width"]?.numberValue == 320)
        let video = try #require(events.lazy.compactMap { if case .videoTrack(let track) = $0 { track } else { nil } }.first)
        #expect(video.width == 320)
        #expect(video.height == 240)
        #expect(video.sequenceParameterSets.first?.first.map { $0 & 0x1F } == 7)
        let audio = try #require(events.lazy.compactMap { if case .audioTrack(let track) = $0 { track } else { nil } }.first)
        #expect(audio.sampleRate == 44_100)
        let packets = events.compactMap { if case .packet(let packet) = $0 { packet } else { nil } }
        let frames = packets.filter { $0.kind == .video }
        let sounds = packets.filter { $0.kind == .audio }
        #expect(frames.count >= 60)
        #expect(sounds.count >= 100)
        #expect(zip(frames, frames.dropFirst()).allSatisfy { $0.decodeTimestamp <= $1.decodeTimestamp })
        #expect(zip(sounds, sounds.dropFirst()).allSatisfy { $0.decodeTimestamp <= $1.decodeTimestamp })
        #expect(frames.allSatisfy { Array($0.payload.prefix(4)) == [0, 0, 0, 1] })
        #expect(frames.contains { $0.isKeyframe })
    }

    @Test("OnAir publishes to ffmpeg -listen; out.flv holds the publisherBackground data message verbatim")
    func sendDataToFFmpeg() async throws {
        let directory = try TestEnvironment.makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let source = try FLVSource(contentsOf: try await TestEnvironment.makeTestFLV(in: directory, seconds: 3),
                                   width: 640, height: 360, framesPerSecond: 30)
        let port = try TestEnvironment.freePort()
        let ffmpeg = try PeerProcess("ffmpeg", [
            "-v", "error", "-y", "-listen", "1", "-i", "rtmp://127.0.0.1:\(port)/app/name", "-map", "0", "-c", "copy", "out.flv",
        ], in: directory)
        defer { ffmpeg.stop() }
        let publisher = RTMPPublisher(url: try StreamURL("rtmp://127.0.0.1:\(port)/app/name"))
        // ffmpeg accepts exactly one connection, so wait for its socket by retrying the publisher itself.
        let deadline = ContinuousClock.now + .seconds(10)
        while true {
            do {
                try await publisher.start(type: .live, video: source.video, audio: source.audio)
                break
            } catch RTMPClient.Error.connectionRefused where ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(20))
            }
        }
        let notice: [AMF0Value] = [.string("streamName=name")]
        let early = source.packets.prefix { $0.decodeTimestamp < 500 }
        try await publisher.send(Array(early))
        try await publisher.send(handler: "publisherBackground", notice)
        try await publisher.send(Array(source.packets.dropFirst(early.count)))
        await publisher.stop()
        let status = await ffmpeg.waitForExit(within: .seconds(20))
        #expect(status == 0, "ffmpeg: \(ffmpeg.standardError)")

        let bytes = try Data(contentsOf: directory.appendingPathComponent("out.flv"))
        let tags = try FLVFileReader.readAll(.init(bytes: bytes)).tags
        let scripts = try tags.filter { $0.type == .scriptData }.map { try AMF0Decoder().decodeAll($0.data) }
        #expect(scripts.contains([.string("publisherBackground")] + notice), "script tags: \(scripts.map { $0.first ?? .null })")
        #expect(tags.contains { $0.type == .video })
        #expect(tags.contains { $0.type == .audio })
    }

    @Test("nginx-rtmp relays onMetaData but drops custom data messages; RTMPDataRelayCheck says dropped")
    func nginxDropsCustomData() async throws {
        let directory = try TestEnvironment.makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let source = try FLVSource(contentsOf: try await TestEnvironment.makeTestFLV(in: directory, seconds: 4),
                                   width: 640, height: 360, framesPerSecond: 30)
        let nginx = try NginxRTMPServer()
        defer { nginx.stop() }
        let player = RTMPPlayer(url: try StreamURL(nginx.url(stream: "relay1")))
        try await player.start()
        let watchdog = Task {
            try await Task.sleep(for: .seconds(30))
            await player.stop()
        }
        defer { watchdog.cancel() }
        let publisher = RTMPPublisher(url: try StreamURL(nginx.url(stream: "relay1")))
        var events: [RTMPPlayer.Event] = []
        var marker: Int64?
        var check: RTMPDataRelayCheck?
        for await event in player.events {
            events.append(event)
            check?.observe(event)
            if marker == nil, case .status = event {
                // Media, then the notice, then more media: TCP and nginx keep order, so frames after the
                // notice arriving without it prove that nginx dropped it.
                try await publisher.start(type: .live, video: source.video, audio: source.audio)
                let half = source.packets.count / 2
                try await publisher.send(Array(source.packets.prefix(half)))
                try await publisher.send(handler: "publisherBackground", .string("streamName=relay1"))
                marker = source.packets[half - 1].decodeTimestamp
                let probe = RTMPDataRelayCheck.random(sentAtTimestamp: marker ?? 0)
                try await publisher.send(handler: RTMPDataRelayCheck.handler, probe.arguments)
                check = probe
                try await publisher.send(Array(source.packets.dropFirst(half)))
                await publisher.stop()
            }
            if case .status(let status) = event, status.code == .playUnpublishNotify { break }
        }
        await player.stop()
        let after = events.filter { if case .packet(let packet) = $0 { packet.decodeTimestamp > (marker ?? .max) } else { false } }
        #expect(after.count > 10)
        #expect(events.contains { if case .metadata = $0 { true } else { false } })
        let handlers = events.compactMap { if case .message(let handler, _) = $0 { handler } else { nil } }
        #expect(!handlers.contains("publisherBackground"), "data handlers seen: \(handlers)")
        #expect(check?.verdict == .dropped)
    }

    @Test("GStreamer rtmp2src plays OnAir's stream from nginx-rtmp until StreamEOF; the FLV it saves decodes")
    func gstreamerPlays() async throws {
        let directory = try TestEnvironment.makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let source = try FLVSource(contentsOf: try await TestEnvironment.makeTestFLV(in: directory, seconds: 3),
                                   width: 640, height: 360, framesPerSecond: 30)
        let nginx = try NginxRTMPServer()
        defer { nginx.stop() }
        let publisher = RTMPPublisher(url: try StreamURL(nginx.url(stream: "gst1")))
        try await publisher.start(type: .live, video: source.video, audio: source.audio)
        let gst = try PeerProcess("gst-launch-1.0", [
            "-q", "rtmp2src", "location=\(nginx.url(stream: "gst1"))", "!", "filesink", "location=gst.flv",
        ], in: directory)
        defer { gst.stop() }
        try await Self.publishPaced(source.packets, with: publisher)
        await publisher.stop()
        let status = await gst.waitForExit(within: .seconds(15))
        #expect(status == 0, "gst-launch: \(gst.standardError)")
        let saved = try Data(contentsOf: directory.appendingPathComponent("gst.flv"))
        let tags = try FLVFileReader.readAll(.init(bytes: saved)).tags
        let video = try tags.filter { $0.type == .video }.map { try FLVVideoTag(parsing: $0.data) }
        #expect(video.first?.packetType == .sequenceHeader)
        #expect(video.count > 30)
        #expect(tags.contains { $0.type == .audio })
        let decode = try await TestEnvironment.run("ffmpeg", ["-v", "error", "-i", "gst.flv", "-f", "null", "-"], in: directory)
        #expect(decode.status == 0)
        #expect(decode.stderr.isEmpty, "ffmpeg decode errors: \(decode.stderr)")
    }
}
