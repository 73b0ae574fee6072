import Foundation
import NIOCore
@testable import OnAirNet
@testable import OnAirRelay
import OnAirRTMP
import OnAirTestSupport
import Testing

/// The fan-out's fast path (GitHub issue 31): a player whose last batch went whole to its socket is armed
/// and sent the next batch from its slot alone. It must be armed when it keeps up, must lose the fast path
/// the moment its socket stops taking whole batches — the rest going through NIO, every frame still whole
/// and in order — and be armed again once it keeps up; and the bytes sent on the fast path must be counted
/// for the player, the stream and the connection.
@Suite("Relay armed fan-out", .serialized)
struct RelayArmedFanoutTests {
    @Test("a player that keeps up is armed, falls back to NIO when its socket fills, is re-armed, and gets every frame in order")
    func armedPlayerKeepsOrderAndCounts() async throws {
        let harness = try await RelayTestHarness {
            $0.audioMergeWindow = nil
            $0.socketSendBufferSize = 16_384        // a 200 kB frame never fits: the armed send(2) is partial
        }
        let url = try harness.streamURL("armed")
        let (player, seen) = try await RelayTestPublisher.numberingPlayer(url)
        let publisher = try await RelayTestPublisher(url: url, type: .live)
        do {
            try await harness.events.wait { events in
                events.contains { if case .playStarted(stream: "armed", _, _) = $0 { true } else { false } }
            }
            // Small frames one at a time, each sent once the player has the one before: whole sends, armed.
            // Then 200 kB frames (partial sends from the slot), then small ones again; one keyframe per phase
            // start (gop 30) and at most three frames in flight, so nothing is dropped for lagging.
            var frames = RelayTestPublisher.syntheticVideo(count: 30, size: 1_000)
            frames += RelayTestPublisher.syntheticVideo(count: 30, size: 200_000, start: 1_000).enumerated().map { index, tag in
                Self.renumbered(tag, as: UInt32(30 + index))
            }
            frames += RelayTestPublisher.syntheticVideo(count: 30, size: 1_000, start: 2_000).enumerated().map { index, tag in
                Self.renumbered(tag, as: UInt32(60 + index))
            }
            var armedAfterSmall = 0
            for index in frames.indices {
                try await publisher.send([frames[index]])
                if index % 3 == 2 { try await seen.wait(timeout: .seconds(60)) { $0.count >= index + 1 } }
                if index == 29 { armedAfterSmall = try await harness.relay.armedPlayerCount() }
                if index == 59 {
                    // The last large frame's rest went through NIO: the fast path must be off until it is sent.
                    try await seen.wait(timeout: .seconds(60)) { $0.count >= 60 }
                }
            }
            try await seen.wait(timeout: .seconds(60)) { $0.count >= frames.count }
            #expect(seen.all == (0..<UInt32(frames.count)).map { $0 }, "every frame, once, in order")
            #expect(armedAfterSmall == 1, "armed while every batch went whole to the socket")
            #expect(try await harness.relay.armedPlayerCount() == 1, "armed again once it keeps up")

            let stream = try #require(try await harness.relay.streams().first { $0.name == "armed" })
            let playerBytes = try #require(stream.players.first)
            let frameBytes = UInt64(30 * 1_000 * 2 + 30 * 200_000)
            #expect(playerBytes.bytesOut >= frameBytes, "the fast path's bytes are the player's")
            #expect(playerBytes.bytesOut == stream.bytesOut, "and the stream's")
            await player.close()
            let closed = try await harness.events.first { event in
                if case .connectionClosed(connection: playerBytes.connection, _, _) = event { true } else { false }
            }
            if case .connectionClosed(_, _, let connectionBytes) = closed {
                #expect(connectionBytes >= playerBytes.bytesOut, "and the connection's")
            }
        } catch {
            await publisher.unpublish()
            await player.close()
            await harness.stop()
            throw error
        }
        await publisher.unpublish()
        await harness.stop()
    }

    /// `tag` with the frame number the player reads (after the 5 bytes of FLV video header) set to `number`.
    static func renumbered(_ tag: FLVTag, as number: UInt32) -> FLVTag {
        var body = tag.data
        body.setInteger(number, at: body.readerIndex + 5)
        return FLVTag(type: tag.type, timestamp: tag.timestamp, data: body)
    }
}
