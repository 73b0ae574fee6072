import Foundation
import NIOCore
@testable import OnAirRelay
import OnAirCore
import OnAirRTMP
import OnAirTestSupport
import Testing

/// GitHub issue 18 items 6–8 on the relay: what stock encoders (which always publish `live` to some
/// application) need — applications kept apart, a way to record them, metadata at timestamp 0.
@Suite("Relay with stock encoders", .serialized)
struct RelayStockEncoderTests {
    private static func ffmpeg(_ url: String, seconds: Int, in directory: URL) throws -> PeerProcess {
        try PeerProcess("ffmpeg", [
            "-nostdin", "-loglevel", "error", "-re", "-f", "lavfi", "-i", "testsrc=size=320x240:rate=30", "-f", "lavfi", "-i", "sine",
            "-c:v", "libx264", "-preset", "ultrafast", "-tune", "zerolatency", "-g", "30", "-c:a", "aac", "-t", "\(seconds)",
            "-f", "flv", url,
        ], in: directory)
    }

    private static func published(_ harness: RelayTestHarness, _ stream: String) async throws {
        _ = try await harness.events.first { if case .publishStarted(stream: stream, _, _, _) = $0 { true } else { false } }
    }

    @Test("app1/x and app2/x are two streams: both ffmpeg publishers are accepted, each player gets its own")
    func applicationsApart() async throws {
        let harness = try await RelayTestHarness()
        let base = "rtmp://127.0.0.1:\(harness.port)"
        // Stopped by the test: 120 s so that ffprobe's play never races their end (was 20 s; issue 24).
        let one = try Self.ffmpeg("\(base)/app1/x", seconds: 120, in: harness.directory.url)
        let two = try Self.ffmpeg("\(base)/app2/x", seconds: 120, in: harness.directory.url)
        defer { one.stop(); two.stop() }
        try await Self.published(harness, "app1/x")
        try await Self.published(harness, "app2/x")
        #expect(!harness.events.all.contains { if case .publishRefused = $0 { true } else { false } })
        let streams = try await harness.relay.streams().map(\.name)
        #expect(streams.contains("app1/x") && streams.contains("app2/x"), "\(streams)")
        let probe = try PeerProcess("ffprobe", ["-v", "error", "-show_streams", "\(base)/app2/x"], in: harness.directory.url)
        #expect(await probe.exitStatus(within: .seconds(30)) == 0, "ffprobe: \(probe.standardError)")
        #expect(probe.standardOutput.contains("codec_name=h264"))
        one.stop()
        two.stop()
        await harness.stop()
    }

    @Test("ffmpeg publishing live is recorded with ?record=record, and with --record all; --record none records nothing")
    func recordStockEncoders() async throws {
        for (mode, stream, query, recorded) in [
            (RelayConfiguration.RecordMode.byType, "asked", "?record=record", true),
            (.byType, "plain", "", false),
            (.all, "everything", "", true),
            (.none, "never", "?record=record", false),
        ] {
            let harness = try await RelayTestHarness { $0.recordMode = mode }
            let publisher = try Self.ffmpeg(harness.url(stream) + query, seconds: 2, in: harness.directory.url)
            #expect(await publisher.exitStatus(within: .seconds(60)) == 0, "ffmpeg: \(publisher.standardError)")
            _ = try await harness.events.first { if case .publishStopped(stream: stream, _, _, _) = $0 { true } else { false } }
            await harness.stop()
            let file = harness.recordDirectory.appendingPathComponent("\(stream).flv")
            #expect(FileManager.default.fileExists(atPath: file.path) == recorded, "\(mode) \(stream)\(query)")
            if recorded {
                let tags = try FLVFileReader.readAll(ByteBuffer(bytes: Data(contentsOf: file))).tags
                #expect(tags.filter { $0.type == .video }.count > 30, "\(mode): \(tags.count) tags")
            }
        }
    }

    @Test("a publisher's onMetaData at 2410 ms reaches players at 0: ffprobe sees no extra data stream")
    func metadataAtZero() async throws {
        let harness = try await RelayTestHarness()
        let result = try await PeerProcess.run("ffmpeg", [
            "-nostdin", "-loglevel", "error", "-f", "lavfi", "-i", "testsrc=size=320x240:rate=30", "-f", "lavfi", "-i", "sine",
            "-c:v", "libx264", "-preset", "ultrafast", "-g", "30", "-c:a", "aac", "-t", "3", "-f", "flv", "source.flv",
        ], in: harness.directory.url)
        try #require(result.status == 0, "\(result.error)")
        var tags = try RelayTestPublisher.tags(ofFile: harness.directory.file("source.flv"))
        // GStreamer's timing: metadata stamped 2410 ms, sent before the media.
        if let index = tags.firstIndex(where: { $0.type == .scriptData }) { tags[index].timestamp = 2410 }

        let probe = try PeerProcess("ffprobe", ["-v", "error", "-show_streams", harness.url("meta")], in: harness.directory.url)
        _ = try await harness.events.first { if case .playStarted(stream: "meta", _, _) = $0 { true } else { false } }
        let publisher = try await RelayTestPublisher(url: try harness.streamURL("meta"), type: .live)
        try await publisher.send(tags)
        try await publisher.sync()
        #expect(await probe.exitStatus(within: .seconds(30)) == 0, "ffprobe: \(probe.standardError)")
        await publisher.unpublish()
        let types = probe.standardOutput.split(separator: "\n").filter { $0.hasPrefix("codec_type=") }
        #expect(types.sorted() == ["codec_type=audio", "codec_type=video"], "\(probe.standardOutput)")
        await harness.stop()
    }

    @Test("record modes and ?record= decide recording from the publish type", arguments: [
        (RelayConfiguration.RecordMode.byType, PublishType.live, String?.none, PublishType?.none),
        (.byType, .record, nil, .record),
        (.byType, .live, "append", .append),
        (.byType, .append, "none", nil),
        (.all, .live, nil, .record),
        (.all, .live, "none", nil),
        (.none, .record, "record", nil),
    ])
    func recordModes(mode: RelayConfiguration.RecordMode, type: PublishType, query: String?, expected: PublishType?) throws {
        #expect(try mode.recording(type: type, query: query) == expected)
    }

    @Test("a bad ?record= value is refused with a reason")
    func badRecordQuery() {
        #expect(throws: RelayConfiguration.RecordMode.BadQuery.self) { try RelayConfiguration.RecordMode.byType.recording(type: .live, query: "sometimes") }
    }
}
