import Foundation
import NIOCore
@testable import OnAirRelay
@testable import OnAirRelay
@testable import OnAirNet
import OnAirCore
import OnAirRTMP
import OnAirTestSupport
import Testing

/// A player that stops reading must not stall the publisher or the other players (nginx-rtmp drops
/// for slow subscribers too; NOTES.md).
@Suite("Relay slow players", .serialized)
struct RelaySlowPlayerTests {
    /// A raw player on OnAir's client connection: handshake, connect, createStream, play.
    static func rawPlayer(_ url: StreamURL, onVideo: @escaping @Sendable (UInt32) -> Void) async throws -> RTMPClientConnection {
        let connection = try await RTMPClientConnection.open(
            url: url, configuration: .init(),
            onIncoming: { incoming in
                if case .video(let body) = incoming.message, let frame = body.getInteger(at: body.readerIndex + 5, as: UInt32.self) {
                    onVideo(frame)
                }
            },
            onClose: { _ in })
        let streamID = try await connection.createStream()
        let name = url.streamName
        connection.execute { $0.notify(.play(name: name), messageStreamID: streamID) }
        return connection
    }

    @Test("a player that stops reading is dropped to keyframes and counted; the publisher and another player go on")
    func slowPlayerDoesNotStallOthers() async throws {
        let limit = 8 << 20
        let harness = try await RelayTestHarness {
            $0.playerQueueLimit = limit
            $0.socketSendBufferSize = 64 << 10
        }
        let url = try harness.streamURL("fanout")
        let fastFrames = RelayTestLog<UInt32>()
        let fast = try await Self.rawPlayer(url) { fastFrames.append($0) }
        let slow = try await Self.rawPlayer(url) { _ in }
        try await slow.channel.setOption(ChannelOptions.socketOption(.so_rcvbuf), value: 16 << 10).get()
        try await slow.channel.setOption(ChannelOptions.autoRead, value: false).get()
        let publisher = try await RelayTestPublisher(url: url, type: .live)
        var slowConnection: Int?
        do {
            try await harness.events.wait { events in
                events.filter { if case .playStarted(stream: "fanout", _, _) = $0 { true } else { false } }.count == 2
            }
            let frames = RelayTestPublisher.syntheticVideo(count: 720, size: 24_000)
            var sent = 0
            while sent < frames.count {          // ≈ 5 MB/s: far more than the stalled socket can hold
                try await publisher.send(Array(frames[sent..<min(sent + 5, frames.count)]))
                sent += 5
                try await Task.sleep(for: .milliseconds(25))
            }
            try await fastFrames.wait(timeout: .seconds(60)) { $0.count == frames.count }
            #expect(fastFrames.all == (0..<UInt32(frames.count)).map { $0 }, "the reading player got every frame, in order")

            let players = try await harness.relay.streams().first?.players ?? []
            let slowPlayer = players.first { $0.droppedMessages > 0 }
            #expect(players.count == 2)
            #expect(slowPlayer != nil, "the stalled player's drops are counted: \(players)")
            slowConnection = slowPlayer?.connection
            #expect(players.filter { $0.droppedMessages == 0 }.count == 1, "the reading player lost nothing")
            #expect((slowPlayer?.queuedBytes ?? .max) <= limit, "the stalled player's queue stays bounded")
            #expect(harness.events.all.contains { if case .playerDropping(stream: "fanout", _, _) = $0 { true } else { false } })
        } catch {
            // Say which side the relay closed, and why, if it did (a lost connection alone does not tell).
            let closures = harness.events.all.filter {
                switch $0 {
                case .connectionRejected, .protocolError: true
                default: false
                }
            }
            Issue.record("relay closures before the failure: \(closures)")
            await publisher.unpublish()
            await fast.close()
            await slow.close()
            await harness.stop()
            throw error
        }
        await publisher.unpublish()
        await fast.close()
        await slow.close()
        if let slowConnection {
            // A count of what the wire carried: the bytes dropped from the stalled player's queue never left.
            try await harness.events.wait { events in
                events.contains { if case .connectionClosed(connection: slowConnection, _, _) = $0 { true } else { false } }
            }
            let played = harness.events.all.compactMap { event -> UInt64? in
                if case .playStopped(_, slowConnection, let bytes, _) = event { bytes } else { nil }
            }
            let written = harness.events.all.compactMap { event -> UInt64? in
                if case .connectionClosed(slowConnection, _, let bytes) = event { bytes } else { nil }
            }
            #expect(played.count == 1 && written.count == 1 && played[0] <= written[0],
                    "the stalled player's relayed bytes \(played) within what its connection wrote \(written)")
        }
        await harness.stop()
    }
}
