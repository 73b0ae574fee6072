import Foundation
import NIOCore
@testable import OnAirRelay
@testable import OnAirNet
import OnAirCore
import OnAirRTMP
import OnAirTestSupport
import Testing

/// A publisher may send aggregate messages (RTMP spec §7.1.6) too: the relay splits them and passes every
/// sub-message on to players as a plain audio, video or data message at its renormalised time; a message
/// type it does not handle is one `peerWarning` per type, never silence (issue 27).
@Suite("Relay aggregate messages")
struct RelayAggregateTests {
    @Test("aggregates in both timestamp styles reach a player as every frame at its own time; shared objects and type 30 warn once each",
          arguments: ["relative", "absolute"])
    func aggregatesRelayed(style: String) async throws {
        let harness = try await RelayTestHarness()
        let tags = try await RelayTestPublisher.ffmpegSource(in: harness.directory, size: "320x180", rate: 30, seconds: 2, zeroLatency: false)
        let frames = tags.filter { $0.type == .video && $0.data.getInteger(at: $0.data.readerIndex + 1, as: UInt8.self) == 1 }
        #expect(frames.count == 60)

        let url = try harness.streamURL("aggregated")
        let player = try await RelayTestPlayer(url: url)
        let publisher = try await RelayTestPublisher(url: url, type: .live)
        let streamID = publisher.streamID
        var messages: [RTMPRawMessage] = []
        for start in stride(from: 0, to: tags.count, by: 5) {
            let group = Array(tags[start..<min(start + 5, tags.count)])
            let first = group[0].timestamp
            let inner = group.map { FLVTag(type: $0.type, timestamp: style == "relative" ? $0.timestamp &- first : $0.timestamp, data: $0.data) }
            messages.append(RTMPRawMessage(chunkStreamID: 6, timestamp: first, typeID: RTMPMessageType.aggregate.rawValue,
                                           messageStreamID: streamID, payload: RTMPAggregateMessage.body(inner)))
            for typeID: UInt8 in [RTMPMessageType.sharedObjectAMF0.rawValue, 30] {
                messages.append(RTMPRawMessage(chunkStreamID: 5, timestamp: first, typeID: typeID, messageStreamID: streamID,
                                               payload: ByteBuffer(bytes: [0, 1, 2, 3])))
            }
        }
        let batch = messages
        try await publisher.connection.flatSubmit { $0.send(batch: batch) }
        try await publisher.sync()

        do {
            try await player.events.wait { events in
                events.filter { if case .packet(let packet) = $0 { packet.kind == .video } else { false } }.count >= frames.count
            }
        } catch {
            // Seen once under 3 CPU hogs: the tracks arrived, then no packet at all. Say what the relay did.
            Issue.record("\(error); the relay's events: \(harness.events.all)")
            await harness.stop()
            return
        }
        let received = player.events.all.compactMap { event -> Int64? in
            if case .packet(let packet) = event, packet.kind == .video { packet.decodeTimestamp } else { nil }
        }
        #expect(received == frames.map { Int64($0.timestamp) })
        let warnings = harness.events.all.compactMap { event -> String? in
            if case .peerWarning(_, let reason) = event { reason } else { nil }
        }
        #expect(warnings.count == 2, "\(warnings)")
        #expect(warnings.contains { $0.contains("type 19") } && warnings.contains { $0.contains("type 30") }, "\(warnings)")
        await publisher.unpublish()
        await player.stop()
        await harness.stop()
    }
}
