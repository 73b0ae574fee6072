import Foundation
import NIOCore
@testable import OnAirRelay
import OnAirCore
import OnAirRTMP
import OnAirTestSupport
import Testing

/// An appended session's video lands on the grid of the file's earlier frames (``RelayVideoCadence``), so a
/// reader that rounds frames to ticks of the frame rate never reads two at one tick. CI saw ffmpeg's "non
/// monotonically increasing dts … 92 >= 92" after a relay restart and a stall: the append had put the new
/// frames half a tick off the old ones.
@Suite("Relay append on the video grid")
struct RelayAppendGridTests {
    /// 3 s of 15 fps H.264 + AAC from ffmpeg: the frame rate of the scenarios' light profile.
    private static func sourceTags(in directory: TemporaryDirectory) async throws -> [FLVTag] {
        try await RelayTestPublisher.ffmpegSource(in: directory, size: "320x180", rate: 15, seconds: 3)
    }

    private static func message(_ tag: FLVTag, at timestamp: UInt32) -> RelayMediaMessage? {
        RelayMediaMessage(RTMPRawMessage(chunkStreamID: 4, timestamp: timestamp, typeID: tag.type.rawValue, messageStreamID: 1, payload: tag.data))
    }

    @Test("record, then append a session whose video starts 0…66 ms after its audio: ffmpeg decodes every file without a repeated dts")
    func appendKeepsTheGrid() async throws {
        let directory = try TemporaryDirectory()
        let tags = try await Self.sourceTags(in: directory)
        let name = try RelayStreamName("grid")
        var failures: [String] = []
        let cases: [(length: UInt32, shift: UInt32)] = [UInt32(1_500), 2_000, 3_000].flatMap { length in (UInt32(0)..<67).map { (length, $0) } }
        for (length, shift) in cases {
            let records = directory.file("rec-\(length)-\(shift)")
            let first = try RelayRecorder(directory: records, name: name, type: .record)
            for tag in tags where tag.timestamp < length { if let message = Self.message(tag, at: tag.timestamp) { try first.write(message) } }
            try first.close()
            // The reconnected publisher's clock starts again; its video begins `shift` ms after its audio.
            let second = try RelayRecorder(directory: records, name: name, type: .append)
            #expect(second.isAppend)
            for tag in tags {
                let timestamp = tag.type == .video ? tag.timestamp + shift : tag.timestamp
                if let message = Self.message(tag, at: timestamp) { try second.write(message) }
            }
            try second.close()
            let file = name.recordingURL(in: records).path
            let decode = try await PeerProcess.run("ffmpeg", ["-v", "error", "-i", file, "-f", "null", "-"], in: directory.url, timeout: .seconds(60))
            if decode.status != 0 || !decode.error.isEmpty {
                failures.append("\(length) ms recorded, shift \(shift) ms: \(decode.error.split(separator: "\n").first ?? "exit \(decode.status)")")
            }
        }
        #expect(failures.isEmpty, "\(failures.count) of \(cases.count) appended files do not decode cleanly:\n\(failures.joined(separator: "\n"))")
    }
}

/// ``RelayVideoCadence`` and the clock's use of it, as values.
@Suite("Relay video cadence")
struct RelayVideoCadenceTests {
    /// 15 fps as FLV stores it: milliseconds rounded from n × 66.667.
    static func fifteen(from start: UInt32, count: Int) -> [UInt32] {
        (0..<count).map { start + UInt32((Double($0) * 1000 / 15).rounded()) }
    }

    @Test("the grid point at or after a time: the last frame plus whole periods, at least one",
          arguments: [
            (time: Int64(0), expected: Int64(1_067)),           // before the last frame: one period on
            (time: 1_000, expected: 1_067),
            (time: 1_067, expected: 1_067),
            (time: 1_068, expected: 1_133),
            (time: 1_100, expected: 1_133),
            (time: 2_001, expected: 2_067),                     // 16 periods on, no drift from 66/67 ms steps
          ])
    func gridPoint(_ row: (time: Int64, expected: Int64)) {
        var cadence = RelayVideoCadence()
        for time in Self.fifteen(from: 0, count: 16) { cadence.add(time) }    // … 933, 1000
        #expect(cadence.last == 1_000)
        #expect(cadence.step == 67)
        #expect(cadence.gridPoint(atOrAfter: row.time) == row.expected)
    }

    @Test("a gap over a second, a step back or a repeat starts a new run; one frame gives no grid")
    func runs() {
        var cadence = RelayVideoCadence()
        #expect(cadence.gridPoint(atOrAfter: 0) == nil)
        cadence.add(500)
        #expect(cadence.step == nil && cadence.gridPoint(atOrAfter: 0) == nil)
        cadence.add(533)
        #expect(cadence.step == 33)
        for next: UInt32 in [5_000, 4_000, 4_000] {
            cadence.add(next)
            #expect(cadence.step == nil, "after \(next)")
        }
    }

    @Test("an append's first video frame moves forward onto the file's grid, and every track with it, by less than a frame",
          arguments: [UInt32(0), 10, 33, 50, 66])
    func appendOnGrid(lead: UInt32) {
        var cadence = RelayVideoCadence()
        for time in Self.fifteen(from: 0, count: 30) { cadence.add(time) }     // the file's frames, last at 1933
        var clock = RelayRecordingClock(base: 2_000, videoCadence: cadence)
        let audio = clock.fileTimestamp(0, track: .audio, isSample: true)
        let video = Self.fifteen(from: lead, count: 5).map { clock.fileTimestamp($0, track: .video, isSample: true) }
        let laterAudio = clock.fileTimestamp(lead + 300, track: .audio, isSample: true)
        #expect(audio == 2_000)
        // The first frame lands on the file's grid; the session's own later frames keep their spacing, within
        // the millisecond their rounding differs by — far from the half frame that makes two frames one tick.
        let grid = Self.fifteen(from: 0, count: 40)
        #expect(grid.contains(video[0]), "\(video[0]) off the grid \(grid.suffix(10))")
        #expect(video.allSatisfy { frame in grid.contains { abs(Int($0) - Int(frame)) <= 1 } }, "\(video) off the grid \(grid.suffix(10))")
        #expect(video[0] >= 2_000 + lead && video[0] < 2_000 + lead + 67, "moved \(Int(video[0]) - Int(2_000 + lead)) ms")
        #expect(Int(laterAudio) - Int(2_300 + lead) == Int(video[0]) - Int(2_000 + lead), "audio keeps its distance to the video")
    }
}
