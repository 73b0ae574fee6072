import Foundation
import NIOCore
import Testing
@testable import OnAirRelay
import OnAirCore
import OnAirRTMP

/// Issue 27: a server move's recording. The moved publisher's new connection carries the same broadcast's
/// timeline on, and the file must keep it: a reopened `append` rebased the new connection's first sample to
/// the file's last tag plus one video interval, which shifts every later frame off the old frames' grid.
/// ffmpeg's decode (`-f null`) rounds each frame to a tick of the stream's frame rate, and frames shifted by
/// about half a tick land two in one ("non monotonically increasing dts … 66 >= 66", seen once in
/// `ServerScenarioRecordingTests` at 15 fps).
@Suite("server-move recording")
struct RelayMoveRecordingTests {
    /// Video every 67 ms (15 fps) and audio every 21 ms, from `start` ms, `duration` ms long, in send order.
    static func media(from start: UInt32, duration: UInt32) -> [FLVTag] {
        var tags: [(UInt32, Int, FLVTag)] = []
        var index = 0
        for time in stride(from: start, to: start + duration, by: 67) {
            var body = ByteBuffer()
            let key = index == 0
            body.writeInteger((key ? FLVVideoTag.FrameType.keyframe : .interframe).rawValue << 4 | FLVVideoTag.CodecID.avc.rawValue)
            body.writeInteger(FLVVideoTag.AVCPacketType.nalu.rawValue)
            body.writeBytes([0, 0, 0])
            body.writeRepeatingByte(0x11, count: 200)
            tags.append((time, 1, FLVTag(type: .video, timestamp: time, data: body)))
            index += 1
        }
        for time in stride(from: start, to: start + duration, by: 21) {
            var body = ByteBuffer()
            body.writeInteger(FLVAudioTag.aacFormatByte)
            body.writeInteger(FLVAudioTag.AACPacketType.raw.rawValue)
            body.writeRepeatingByte(0x21, count: 100)
            tags.append((time, 0, FLVTag(type: .audio, timestamp: time, data: body)))
        }
        return tags.sorted { ($0.0, $0.1) < ($1.0, $1.1) }.map(\.2)
    }

    @Test("a moved publisher's append goes on in the same file with the timeline it was sent with")
    func moveKeepsTheTimeline() async throws {
        let harness = try await RelayTestHarness()
        let second = try await harness.relay.addMoveListener()
        let publisher = try await RelayTestPublisher(url: try harness.streamURL("moving"), type: .record)
        // The old connection's last tag is audio (2016 ms), 6 ms after its last video frame (2010 ms).
        try await publisher.send(Self.media(from: 0, duration: 2_020))
        try await publisher.sync()
        harness.relay.interrupt(.move)
        let moved = try await RelayTestPublisher(url: try StreamURL("rtmp://127.0.0.1:\(second)/live/moving"), type: .append)
        // The same timeline, on: the next video frame is due 67 ms after the last one.
        try await moved.send(Self.media(from: 2_077, duration: 1_000))
        try await moved.sync()
        try await harness.events.wait { events in
            events.contains { if case .publishStopped(_, _, .unpublished, _) = $0 { true } else { false } }
        }
        await publisher.unpublish()
        await moved.unpublish()
        try await harness.events.wait { events in
            events.contains { if case .recordingStopped(stream: "moving", _, _) = $0 { true } else { false } }
        }
        await harness.stop()

        let tags = try RelayTestPublisher.tags(ofFile: harness.recordDirectory.appendingPathComponent("moving.flv"))
        let video = tags.filter { $0.type == .video }.map(\.timestamp)
        let audio = tags.filter { $0.type == .audio }.map(\.timestamp)
        let videoSteps = zip(video, video.dropFirst()).map { Int($1) - Int($0) }
        let audioSteps = zip(audio, audio.dropFirst()).map { Int($1) - Int($0) }
        let sent = Self.media(from: 0, duration: 2_020) + Self.media(from: 2_077, duration: 1_000)
        #expect(video == sent.filter { $0.type == .video }.map(\.timestamp), "the video timeline is not the one sent")
        #expect(audio == sent.filter { $0.type == .audio }.map(\.timestamp), "the audio timeline is not the one sent")
        #expect(videoSteps.allSatisfy { (60...140).contains($0) }, "video steps across the move: \(videoSteps)")
        #expect(audioSteps.allSatisfy { (1...70).contains($0) }, "audio steps across the move: \(audioSteps)")
    }

    /// Each row: the old timeline's last video and audio, the new connection's first video sample, and where
    /// the file must put it.
    @Test("the clock after a takeover: the same timeline goes on; a resend or a clock of its own lands one step after",
          arguments: [
            (first: UInt32(2_077), expected: UInt32(2_077)),     // the same timeline, the next frame
            (first: 2_010, expected: 2_077),                     // a resend of the last frame
            (first: 0, expected: 2_077),                         // a connection that starts its clock at 0
            (first: 90_000, expected: 2_077),                    // a clock far ahead
            (first: 2_900, expected: 2_900),                     // a gap under a second is real and kept
          ])
    func clockAfterTakeOver(_ row: (first: UInt32, expected: UInt32)) {
        var clock = RelayRecordingClock(base: 0)
        for tag in Self.media(from: 0, duration: 2_020) {
            _ = clock.fileTimestamp(tag.timestamp, track: tag.type, isSample: true)
        }
        clock.continueAfterTakeOver()
        _ = clock.fileTimestamp(0, track: .video, isSample: false)       // the new connection's sequence header
        let first = clock.fileTimestamp(row.first, track: .video, isSample: true)
        #expect(first == row.expected)
        let next = clock.fileTimestamp(row.first &+ 67, track: .video, isSample: true)
        #expect(next == row.expected + 67, "the frames after it keep their spacing")
    }
}
