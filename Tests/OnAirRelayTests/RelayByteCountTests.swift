import NIOCore
@testable import OnAirNet
@testable import OnAirRelay
import OnAirCore
import Testing

/// The relay's byte counts are what its sockets took, not what it handed to NIO: a player that falls behind
/// leaves up to NIO's high water mark (256 KiB) in the channel, and when its connection closes NIO drops
/// those bytes. Each ending below closes such a player while NIO holds bytes of it; the player then reads
/// everything its socket received, to the relay's FIN, and that is what the relay must report.
@Suite("Relay byte counts", .serialized)
struct RelayByteCountTests {
    enum Ending: String, CaseIterable, CustomTestStringConvertible {
        /// The relay closes the connection (`server-restart`).
        case relayRestarts
        /// The player shuts down its sending side; the relay reads EOF and closes.
        case playerHalfCloses
        var testDescription: String { rawValue }
    }

    @Test("a closed player's count is the bytes it received, not those the relay handed to NIO", arguments: Ending.allCases)
    func closedPlayerCountsWhatLeft(ending: Ending) async throws {
        let harness = try await RelayTestHarness {
            $0.playerQueueLimit = 1 << 20
            $0.socketSendBufferSize = 64 << 10
            $0.acknowledgementWindow = 1 << 30      // the player sends no acknowledgement into a closed socket
        }
        let url = try harness.streamURL("count")
        let player = try await RelaySlowPlayerTests.rawPlayer(url) { _ in }
        try await player.channel.setOption(ChannelOptions.socketOption(.so_rcvbuf), value: 16 << 10).get()
        try await player.channel.setOption(ChannelOptions.autoRead, value: false).get()
        let publisher = try await RelayTestPublisher(url: url, type: .live)
        try await harness.run {
            let started = try await harness.events.first { if case .playStarted(stream: "count", _, _) = $0 { true } else { false } }
            guard case .playStarted(_, let connection, _) = started else {
                Issue.record("waited for playStarted, got \(started)")
                return
            }
            // Until the relay's queue for the stalled player drops: NIO then holds its high water mark of it.
            let frames = RelayTestPublisher.syntheticVideo(count: 400, size: 24_000)
            var sent = 0
            while sent < frames.count, !harness.events.all.contains(where: Self.isDropping) {
                try await publisher.send(Array(frames[sent..<sent + 5]))
                sent += 5
                try await Task.sleep(for: .milliseconds(25))
            }
            try await harness.events.wait { $0.contains(where: Self.isDropping) }

            switch ending {
            case .relayRestarts:
                harness.relay.interrupt(.restart(.seconds(1)))
            case .playerHalfCloses:
                try await player.channel.close(mode: .output).get()
            }
            try await harness.events.wait { events in
                events.contains { if case .connectionClosed(connection: connection, _, _) = $0 { true } else { false } }
            }
            let closed = RelayTestLog<Bool>()
            player.channel.closeFuture.whenComplete { _ in closed.append(true) }
            try await player.channel.setOption(ChannelOptions.autoRead, value: true).get()
            player.channel.read()
            try await closed.wait(timeout: .seconds(60)) { !$0.isEmpty }      // the relay's FIN, after every byte
            let received = try await player.channel.eventLoop.submit { player.handler.value.bytesRead }.get()
            let counted = harness.events.all.compactMap { event -> UInt64? in
                if case .connectionClosed(connection, _, let bytes) = event { bytes } else { nil }
            }
            let played = harness.events.all.compactMap { event -> UInt64? in
                if case .playStopped(_, connection, let bytes, _) = event { bytes } else { nil }
            }
            #expect(counted == [received], "the relay's connectionClosed count \(counted) against what the player received \(received)")
            #expect(played.count == 1 && played[0] <= received, "the play's count \(played) within what the player received \(received)")
            #expect(received > 1 << 16, "the player received media before it stalled and after: \(received)")
        } finally: {
            await publisher.unpublish()
            await player.close()
            await harness.stop()
        }
    }

    private static func isDropping(_ event: RelayEvent) -> Bool {
        if case .playerDropping(stream: "count", _, _) = event { true } else { false }
    }
}
