import Foundation
import NIOCore
@testable import OnAirRelay
import OnAirRTMP
import OnAirTestSupport
import Testing

/// ffmpeg publishes to the relay; ffprobe, rtmpdump and GStreamer each play it (docs/design.md §4 peers).
@Suite("Relay with stock peers", .serialized)
struct RelayStockPeerTests {
    @Test("ffmpeg publishes; ffprobe, rtmpdump and GStreamer play it, starting on a keyframe")
    func stockPlayers() async throws {
        let harness = try await RelayTestHarness()
        // Stopped by the test; 90 s so that no player's window depends on how fast a loaded machine starts them
        // (was 30 s; rtmpdump's window was 5 s for its 60 frames, now 15 s; issue 24).
        let publisher = try harness.ffmpegPublisher(stream: "stock", seconds: 90)
        defer { publisher.stop() }
        do {
            _ = try await harness.events.first { if case .publishStarted(stream: "stock", _, _, _) = $0 { true } else { false } }
            let directory = harness.directory.url
            let url = harness.url("stock")

            let probe = try PeerProcess("ffprobe", ["-v", "error", "-show_streams", url], in: directory)
            let dump = try PeerProcess("timeout", ["-s", "INT", "15", "rtmpdump", "--live", "-r", url, "-o", "dump.flv"], in: directory)
            let gstOut = directory.appendingPathComponent("gst-video.h264").path
            // num-buffers (one buffer per RTMP message) ends the pipeline with EOS after ~4 s of media.
            let gst = try PeerProcess("gst-launch-1.0", [
                "-e", "rtmp2src", "location=\(url)", "num-buffers=300", "!", "flvdemux", "name=d",
                "d.video", "!", "queue", "!", "filesink", "location=\(gstOut)",
            ], in: directory)

            #expect(await probe.exitStatus(within: .seconds(60)) == 0, "ffprobe: \(probe.standardError)")
            #expect(probe.standardOutput.contains("codec_name=h264"), "\(probe.standardOutput)")
            #expect(probe.standardOutput.contains("codec_name=aac"))
            #expect(probe.standardOutput.contains("width=640"))
            let streams = try await harness.relay.streams()
            #expect(streams.first?.bytesIn ?? 0 > 50_000, "\(streams)")

            await dump.exitStatus(within: .seconds(60))
            let dumped = try FLVFileReader.readAll(ByteBuffer(bytes: Data(contentsOf: directory.appendingPathComponent("dump.flv"))))
            let video = dumped.tags.filter { $0.type == .video }.compactMap { try? FLVVideoTag(parsing: $0.data) }
            #expect(video.count > 60, "rtmpdump wrote \(video.count) video tags; \(dump.standardError)")
            #expect(video.first?.packetType == .sequenceHeader)
            #expect(video.first { $0.packetType == .nalu }?.isKeyframe == true, "the first frame a player gets is a keyframe")
            #expect(dumped.tags.contains { $0.type == .audio })

            let gstStatus = await gst.exitStatus(within: .seconds(90))
            let gstBytes = (try? FileManager.default.attributesOfItem(atPath: gstOut)[.size] as? Int) ?? 0
            #expect(gstBytes > 20_000, "GStreamer wrote \(gstBytes) bytes (status \(gstStatus)): \(gst.standardOutput) \(gst.standardError)")
            #expect(gstStatus == 0, "\(gst.standardOutput) \(gst.standardError)")
        } catch {
            publisher.stop()
            await harness.stop()
            throw error
        }
        publisher.stop()
        await harness.stop()
    }
}
