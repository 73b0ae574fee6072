import Foundation
import NIOCore
@testable import OnAirRelay
@testable import OnAirRelay
@testable import OnAirNet
import OnAirCore
import OnAirRTMP
import OnAirTestSupport
import Testing

/// Batched fan-out (GitHub issue 5): a read burst's messages go to each player as one write, and audio-only
/// batches may wait for the next video frame — players must still get every message, in publish order.
@Suite("Relay fan-out order", .serialized)
struct RelayFanoutOrderTests {
    /// What a player saw: "v<n>" for video frame n, "a<n>" for audio frame n.
    private static func rawPlayer(_ url: StreamURL, log: RelayTestLog<String>) async throws -> RTMPClientConnection {
        let connection = try await RTMPClientConnection.open(
            url: url, configuration: .init(),
            onIncoming: { incoming in
                switch incoming.message {
                case .video(let body):
                    if let frame = body.getInteger(at: body.readerIndex + 5, as: UInt32.self) { log.append("v\(frame)") }
                case .audio(let body):
                    if let frame = body.getInteger(at: body.readerIndex + 2, as: UInt32.self) { log.append("a\(frame)") }
                default:
                    break
                }
            },
            onClose: { _ in })
        let streamID = try await connection.createStream()
        let name = url.streamName
        connection.execute { $0.notify(.play(name: name), messageStreamID: streamID) }
        return connection
    }

    /// AAC frame `index` (raw AAC packet type 1), numbered so that a player can check order.
    private static func audio(_ index: Int) -> FLVTag {
        var body = ByteBuffer()
        body.writeInteger(FLVAudioTag.aacFormatByte)
        body.writeInteger(FLVAudioTag.AACPacketType.raw.rawValue)
        body.writeInteger(UInt32(index))
        body.writeRepeatingByte(0x21, count: 300)
        return FLVTag(type: .audio, timestamp: UInt32(index * 1024 * 1000 / 44_100), data: body)
    }

    @Test("interleaved audio and video, and an audio-only tail, reach every player complete and in order",
          arguments: [TimeAmount?.some(.milliseconds(40)), nil])
    func interleavedOrder(_ window: TimeAmount?) async throws {
        let harness = try await RelayTestHarness { $0.audioMergeWindow = window }
        let url = try harness.streamURL("order")
        let logs = [RelayTestLog<String>(), RelayTestLog<String>()]
        var players: [RTMPClientConnection] = []
        for log in logs { players.append(try await Self.rawPlayer(url, log: log)) }
        let publisher = try await RelayTestPublisher(url: url, type: .live)
        do {
            try await harness.events.wait { events in
                events.filter { if case .playStarted(stream: "order", _, _) = $0 { true } else { false } }.count == 2
            }
            // 30 fps video with ~43 audio frames a second, then 5 audio frames and no more video: the tail
            // is audio only and must go out without a video frame to carry it.
            let video = RelayTestPublisher.syntheticVideo(count: 60, size: 3000)
            var tags: [FLVTag] = []
            var expected: [String] = []
            var audioIndex = 0
            for (index, frame) in video.enumerated() {
                tags.append(frame)
                expected.append("v\(index)")
                while audioIndex * 1024 * 30 < (index + 1) * 44_100 {
                    tags.append(Self.audio(audioIndex))
                    expected.append("a\(audioIndex)")
                    audioIndex += 1
                }
            }
            for _ in 0..<5 {
                tags.append(Self.audio(audioIndex))
                expected.append("a\(audioIndex)")
                audioIndex += 1
            }
            for start in stride(from: 0, to: tags.count, by: 3) {     // small bursts, some of them audio only
                try await publisher.send(Array(tags[start..<min(start + 3, tags.count)]))
                try await Task.sleep(for: .milliseconds(5))
            }
            for log in logs {
                try await log.wait(timeout: .seconds(30)) { $0.count >= expected.count }
                let seen = log.all
                let firstDifference = zip(seen, expected).enumerated().first { $0.element.0 != $0.element.1 }?.offset
                #expect(seen == expected, "a player saw \(seen.count) messages; first difference at \(String(describing: firstDifference))")
            }
        } catch {
            await publisher.unpublish()
            for player in players { await player.close() }
            await harness.stop()
            throw error
        }
        await publisher.unpublish()
        for player in players { await player.close() }
        await harness.stop()
    }
}
