import Foundation
import NIOCore
@testable import OnAirRelay
import OnAirCore
import OnAirRTMP
import Testing

/// GitHub issue 14 item 1: timestamps from the wire and from an existing file never trap the recorder.
@Suite("Relay recording resume overflow", .serialized)
struct RelayResumeOverflowTests {
    private static func keyframe(at timestamp: UInt32) -> FLVTag {
        var tag = RelayTestPublisher.syntheticVideo(count: 1, size: 100)[0]
        tag.timestamp = timestamp
        return tag
    }

    private static func recordingEvent(_ harness: RelayTestHarness, after count: Int) async throws -> RelayEvent {
        try await harness.events.wait { events in
            events.filter { event in
                switch event {
                case .recordingStopped, .recordingFailed: true
                default: false
                }
            }.count > count
        }
        return harness.events.all.filter { event in
            switch event {
            case .recordingStopped, .recordingFailed: true
            default: false
            }
        }[count]
    }

    @Test("record at 0 and 0x7FFFFFFF, append at 0 and 2147482149, append again: refused with a reason, relay stays up")
    func threeSessionPoison() async throws {
        let harness = try await RelayTestHarness()
        let url = try harness.streamURL("poison")
        let sessions: [(PublishType, [UInt32])] = [(.record, [0, 0x7FFF_FFFF]), (.append, [0, 2_147_482_149]), (.append, [0, 33])]
        var outcomes: [RelayEvent] = []
        for (index, (type, timestamps)) in sessions.enumerated() {
            let publisher = try await RelayTestPublisher(url: url, type: type)
            try await publisher.send(timestamps.map(Self.keyframe(at:)))
            try await publisher.sync()
            await publisher.unpublish()
            outcomes.append(try await Self.recordingEvent(harness, after: index))
        }
        guard case .recordingStopped = outcomes[0], case .recordingStopped = outcomes[1] else {
            Issue.record("the first two sessions should record: \(outcomes)")
            return
        }
        guard case .recordingFailed(_, _, let reason) = outcomes[2] else {
            Issue.record("the third append should be refused: \(outcomes[2])")
            return
        }
        #expect(reason.contains("32-bit limit"), "\(reason)")

        // The relay is still up and still relays: a fresh publisher and player on another name.
        let player = try await RelayTestPlayer(url: try harness.streamURL("after"))
        let live = try await RelayTestPublisher(url: try harness.streamURL("after"), type: .live)
        try await live.send(RelayTestPublisher.syntheticVideo(count: 30, size: 500))
        try await harness.events.wait { $0.contains { if case .publishStarted(stream: "after", _, _, _) = $0 { true } else { false } } }
        await live.unpublish()
        await player.stop()

        let file = harness.recordDirectory.appendingPathComponent("poison.flv")
        let tags = try FLVFileReader.readAll(ByteBuffer(bytes: Data(contentsOf: file))).tags
        let timestamps = tags.map(\.timestamp)
        #expect(zip(timestamps, timestamps.dropFirst()).allSatisfy { $0 <= $1 }, "timestamps go backwards: \(timestamps)")
        await harness.stop()
    }

    @Test("a file whose last tag is at 0xFFFFFFFF resumes saturated, never wrapped")
    func saturatedScan() throws {
        var writer = FLVFileWriter(hasAudio: false, hasVideo: true)
        writer.append(Self.keyframe(at: 0))
        writer.append(Self.keyframe(at: 0xFFFF_FFF0))
        writer.append(Self.keyframe(at: 0xFFFF_FFFF))
        var bytes = writer.takeBytes()
        var scanner = RelayResumeScanner()
        try scanner.consume(&bytes)
        let resume = try #require(scanner.resume())
        #expect(resume.nextTimestamp == .max)
        #expect(!resume.hasTimestampHeadroom)
    }

    @Test("the recording clock saturates at FLV's limit and keeps each track increasing")
    func clockSaturates() {
        var clock = RelayRecordingClock(base: 0xFFFF_FF00)
        let stamps = [0, 0x100, 0x7FFF_FFFF, 0x8000_0000, 0xFFFF_FFFF].map {
            clock.fileTimestamp(UInt32($0), track: .video, isSample: true)
        }
        #expect(zip(stamps, stamps.dropFirst()).allSatisfy { $0 <= $1 }, "\(stamps)")
        #expect(stamps.allSatisfy { $0 >= 0xFFFF_FF00 })
    }
}
