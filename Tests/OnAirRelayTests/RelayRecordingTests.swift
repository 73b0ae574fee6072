import Foundation
import NIOCore
@testable import OnAirRelay
import OnAirCore
import OnAirRTMP
import OnAirTestSupport
import Testing

/// Recording by publish type (docs/design.md §3; red5pro-blog-ios-interruptions.txt's `append`).
@Suite("Relay recording", .serialized)
struct RelayRecordingTests {
    /// A 3-second H.264 + AAC FLV from ffmpeg, the media the publisher sends.
    private static func sourceFile(in directory: TemporaryDirectory) async throws -> [FLVTag] {
        try await RelayTestPublisher.ffmpegSource(in: directory, size: "640x360", rate: 30, seconds: 3)
    }

    private static func duration(of url: URL, in directory: TemporaryDirectory) async throws -> Double {
        let result = try await PeerProcess.run("ffprobe", ["-v", "error", "-show_format", url.path], in: directory.url)
        let line = result.output.split(separator: "\n").first { $0.hasPrefix("duration=") }
        return Double(line?.dropFirst("duration=".count) ?? "") ?? -1
    }

    private static func waitForRecordingStopped(_ harness: RelayTestHarness, count: Int) async throws {
        try await harness.events.wait { events in
            events.filter { if case .recordingStopped = $0 { true } else { false } }.count == count
        }
    }

    @Test("record 3 s, stop, append 3 s: ffprobe sees one 6 s recording with monotonic timestamps")
    func recordThenAppend() async throws {
        let harness = try await RelayTestHarness()
        let tags = try await Self.sourceFile(in: harness.directory)
        let url = try harness.streamURL("interview")

        let first = try await RelayTestPublisher(url: url, type: .record)
        try await first.send(tags)
        await first.unpublish()
        try await Self.waitForRecordingStopped(harness, count: 1)

        let second = try await RelayTestPublisher(url: url, type: .append)
        try await second.send(tags)
        await second.unpublish()
        try await Self.waitForRecordingStopped(harness, count: 2)
        await harness.stop()

        let file = harness.recordDirectory.appendingPathComponent("interview.flv")
        let source = try await Self.duration(of: harness.directory.file("source.flv"), in: harness.directory)
        let recorded = try await Self.duration(of: file, in: harness.directory)
        print("relay recording: source \(source) s, record + append \(recorded) s")
        #expect(abs(recorded - 2 * source) <= 0.2, "recorded \(recorded) s from two \(source) s sessions")
        #expect(abs(recorded - 6) <= 0.2)

        let readBack = try FLVFileReader.readAll(ByteBuffer(bytes: Data(contentsOf: file)))
        #expect(!readBack.isTruncated)
        let timestamps = readBack.tags.map(\.timestamp)
        #expect(zip(timestamps, timestamps.dropFirst()).allSatisfy { $0 <= $1 }, "timestamps go backwards")
        let sequenceHeaders = readBack.tags.filter { RelayMediaMessage(RTMPRawMessage(
            chunkStreamID: 0, timestamp: 0, typeID: $0.type.rawValue, messageStreamID: 0, payload: $0.data))?.isSequenceHeader == true }
        #expect(sequenceHeaders.count == 2, "identical sequence headers are not written again on append")
        #expect(readBack.tags.filter { $0.type == .scriptData }.count == 1)
    }

    @Test("live writes no file; record starts a new file and keeps the old one, numbered")
    func liveAndRecord() async throws {
        let harness = try await RelayTestHarness()
        let tags = RelayTestPublisher.syntheticVideo(count: 60, size: 500)
        let live = try await RelayTestPublisher(url: try harness.streamURL("onlylive"), type: .live)
        try await live.send(tags)
        await live.unpublish()
        _ = try await harness.events.first { if case .publishStopped(stream: "onlylive", _, _, _) = $0 { true } else { false } }
        #expect(!FileManager.default.fileExists(atPath: harness.recordDirectory.appendingPathComponent("onlylive.flv").path))

        for session in 1...2 {
            let record = try await RelayTestPublisher(url: try harness.streamURL("again"), type: .record)
            try await record.send(tags)
            await record.unpublish()
            // This session's stop, not the first one's again: `first` searches every event so far, and on the
            // second pass it returned the first session's stop at once, so under load the file was read
            // before the second recording had been written (0 tags).
            try await harness.events.wait { events in
                events.filter { if case .recordingStopped(stream: "again", _, _) = $0 { true } else { false } }.count >= session
            }
        }
        await harness.stop()
        let readBack = try FLVFileReader.readAll(ByteBuffer(bytes: Data(contentsOf: harness.recordDirectory.appendingPathComponent("again.flv"))))
        #expect(readBack.tags.count == 60, "the second record starts a new file")
        #expect(readBack.tags.first?.timestamp == 0)
        // Issue 28 (11): the first recording is kept, numbered, never overwritten.
        let kept = harness.recordDirectory.appendingPathComponent("again-1.flv")
        let first = try FLVFileReader.readAll(ByteBuffer(bytes: Data(contentsOf: kept)))
        #expect(first.tags.count == 60, "the first recording kept whole as again-1.flv")
    }

    @Test("a publisher that dies mid-stream leaves a valid file up to its last complete tag")
    func droppedPublisherLeavesValidFile() async throws {
        let harness = try await RelayTestHarness()
        let publisher = try await RelayTestPublisher(url: try harness.streamURL("cut"), type: .record)
        try await publisher.send(RelayTestPublisher.syntheticVideo(count: 90, size: 4000))
        await publisher.drop()
        _ = try await harness.events.first {
            if case .publishStopped(stream: "cut", _, reason: .disconnected, _) = $0 { true } else { false }
        }
        _ = try await harness.events.first { if case .recordingStopped(stream: "cut", _, _) = $0 { true } else { false } }
        let readBack = try FLVFileReader.readAll(ByteBuffer(bytes: Data(contentsOf: harness.recordDirectory.appendingPathComponent("cut.flv"))))
        #expect(!readBack.isTruncated)
        #expect(readBack.tags.count == 90)
        await harness.stop()
    }
}
