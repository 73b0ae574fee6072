import Foundation
import NIOCore
@testable import OnAirNet
@testable import OnAirRelay
import OnAirRTMP
import OnAirTestSupport
import Testing

/// Direct writes (GitHub issue 31): a player's fan-out bytes go to its socket with `send(2)` on the relay's
/// duplicate of the descriptor, not through NIO's pipeline. The duplicate must be found for a real
/// accepted connection, and the player must still get every frame, whole and in order — with direct writes
/// and without (`directWrites = false`, every byte through NIO), which must give the same messages.
@Suite("Relay direct writes", .serialized)
struct RelayDirectWriteTests {
    @Test("a player's connection writes straight to its socket and gets every frame in order; off, none does",
          arguments: [true, false])
    func playerGetsEveryFrame(_ direct: Bool) async throws {
        let harness = try await RelayTestHarness {
            $0.directWrites = direct
            $0.audioMergeWindow = nil
            $0.socketSendBufferSize = 16_384        // every frame fills the socket: its tail goes through NIO
        }
        let url = try harness.streamURL("direct")
        let (player, seen) = try await RelayTestPublisher.numberingPlayer(url)
        let publisher = try await RelayTestPublisher(url: url, type: .live)
        try await harness.run {
            try await harness.events.wait { events in
                events.contains { if case .playStarted(stream: "direct", _, _) = $0 { true } else { false } }
            }
            // Frames of 200 kB: more than the socket takes at once, so each send(2) is partial and the unsent
            // tail goes through NIO, and must still arrive whole before the next frame. Three frames at a time,
            // each three once the player has the last ones, so no frame is dropped for lagging.
            let frames = RelayTestPublisher.syntheticVideo(count: 90, size: 200_000)
            for start in stride(from: 0, to: frames.count, by: 3) {
                try await publisher.send(Array(frames[start..<min(start + 3, frames.count)]))
                try await seen.wait(timeout: .seconds(60)) { $0.count >= start + 3 }
            }
            try await seen.wait(timeout: .seconds(60)) { $0.count >= frames.count }
            #expect(seen.all == (0..<UInt32(frames.count)).map { $0 })
            let writers = try await harness.relay.connectionDirectWrites()
            #expect(writers.count == 2)
            #expect(writers.filter { $0 }.count == (direct ? 1 : 0), "the publisher never, the player when on")
        } finally: {
            await publisher.unpublish()
            await player.close()
            await harness.stop()
        }
    }
}
