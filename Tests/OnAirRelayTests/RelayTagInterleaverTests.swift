import NIOCore
@testable import OnAirRelay
import OnAirRTMP
import Testing

/// The recorder's merge of audio and video into one timestamp-ordered FLV.
@Suite("Relay recording interleaver")
struct RelayTagInterleaverTests {
    private func tag(_ type: FLVTag.TagType, _ timestamp: UInt32) -> FLVTag {
        FLVTag(type: type, timestamp: timestamp, data: ByteBuffer(bytes: [type.rawValue]))
    }

    private func describe(_ tags: [FLVTag]) -> [String] {
        tags.map { "\($0.type == .audio ? "a" : $0.type == .video ? "v" : "m")\($0.timestamp)" }
    }

    @Test("audio and video sent out of order come out in timestamp order, each keeping its own timestamps")
    func mergesTracks() {
        var interleaver = RelayTagInterleaver()
        var written: [FLVTag] = []
        // As a publisher sends them: a video frame, then the audio frames stamped before it, …
        for (type, ms) in [(FLVTag.TagType.video, UInt32(75)), (.audio, 43), (.audio, 64), (.audio, 85), (.video, 142), (.audio, 107), (.audio, 128), (.audio, 149)] {
            written += interleaver.add(tag(type, ms))
        }
        written += interleaver.drain()
        #expect(describe(written) == ["a43", "a64", "v75", "a85", "a107", "a128", "v142", "a149"])
    }

    @Test("with one track paused, the other is written once it is a window ahead, and nothing goes back")
    func pausedTrack() {
        var interleaver = RelayTagInterleaver()
        var written = interleaver.add(tag(.video, 0))
        for ms in stride(from: UInt32(21), through: 1600, by: 21) { written += interleaver.add(tag(.audio, ms)) }
        #expect(!written.isEmpty, "audio waited for video forever")
        #expect(written.last.map { 1600 - $0.timestamp } ?? 0 <= RelayTagInterleaver.window + 21)
        // Video resumes with a frame older than audio already written: lifted, never backwards.
        written += interleaver.add(tag(.video, 500))
        written += interleaver.drain()
        let stamps = written.map(\.timestamp)
        #expect(zip(stamps, stamps.dropFirst()).allSatisfy { $0 <= $1 }, "\(stamps)")
        #expect(written.count == 1 + 76 + 1)
    }

    @Test("metadata flushes what is held and keeps its place")
    func metadata() {
        var interleaver = RelayTagInterleaver()
        var written = interleaver.add(tag(.audio, 10))
        written += interleaver.add(tag(.scriptData, 0))
        #expect(describe(written) == ["a10", "m10"])
    }

    @Test("late tags of one track lifted past the other never share an instant with each other")
    func lateTagsStayApart() {
        var interleaver = RelayTagInterleaver()
        var written: [FLVTag] = []
        for ms in stride(from: UInt32(0), through: 1500, by: 21) { written += interleaver.add(tag(.audio, ms)) }
        for ms: UInt32 in [100, 133, 166] { written += interleaver.add(tag(.video, ms)) }
        written += interleaver.drain()
        let video = written.filter { $0.type == .video }.map(\.timestamp)
        #expect(zip(video, video.dropFirst()).allSatisfy { $0 < $1 }, "\(video)")
        let all = written.map(\.timestamp)
        #expect(zip(all, all.dropFirst()).allSatisfy { $0 <= $1 }, "\(all)")
    }
}
