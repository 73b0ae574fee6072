import Foundation
import NIOCore
import NIOPosix
@testable import OnAirRelay
import OnAirCore
import OnAirRTMP
import OnAirTestSupport
import Testing

/// The relay's protection against one client using it up (GitHub issue 8): a per-address connection limit
/// and a handshake timeout, over real sockets, with ffmpeg publishing and OnAir's player playing around them.
@Suite("Relay limits", .serialized)
struct RelayLimitTests {
    /// A plain TCP connection to the relay that says nothing unless told to.
    private static func rawConnection(port: Int) async throws -> any Channel {
        try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .channelInitializer { channel in channel.eventLoop.makeSucceededVoidFuture() }
            .connect(host: "127.0.0.1", port: port).get()
    }

    /// Whether the relay closed `channel` within `timeout` (a safety net, not a measurement).
    private static func closedByRelay(_ channel: any Channel, within timeout: Duration = .seconds(20)) async -> Bool {
        let deadline = ContinuousClock.now + timeout
        while channel.isActive && ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(20))
        }
        return !channel.isActive
    }

    private static func isRejection(_ event: RelayEvent, _ code: String) -> Bool {
        if case .connectionRejected(_, _, let reason) = event { reason.code == code } else { false }
    }

    private static func count(_ events: [RelayEvent], _ matches: (RelayEvent) -> Bool) -> Int {
        events.filter(matches).count
    }

    /// A player from the relay's loopback address that must get decoded-ready video of `stream`.
    private static func expectPlays(_ harness: RelayTestHarness, stream: String) async throws {
        let player = try await RelayTestPlayer(url: try harness.streamURL(stream))
        do {
            _ = try await player.events.first { if case .packet(let packet) = $0 { packet.kind == .video } else { false } }
        } catch {
            await player.stop()
            throw error
        }
        await player.stop()
    }

    @Test("connections beyond the per-address limit are closed and reported; a player below the limit plays")
    func perAddressLimit() async throws {
        let limit = 4
        let harness = try await RelayTestHarness {
            $0.maxConnectionsPerAddress = limit
            $0.limitsLoopback = true                 // the test's clients are all 127.0.0.1
            $0.handshakeTimeout = .seconds(60)       // idle sockets must be closed by the limit, not the timeout
        }
        let publisher = try harness.ffmpegPublisher(stream: "limited", seconds: 40)
        var idle: [any Channel] = []
        do {
            _ = try await harness.events.first { if case .publishStarted(stream: "limited", _, _, _) = $0 { true } else { false } }
            for _ in 1..<limit { idle.append(try await Self.rawConnection(port: harness.port)) }   // publisher + 3 = limit
            try await harness.events.wait { Self.count($0) { if case .connectionOpened = $0 { true } else { false } } == limit }

            var refused: [any Channel] = []
            for _ in 0..<3 { refused.append(try await Self.rawConnection(port: harness.port)) }
            for channel in refused {
                #expect(await Self.closedByRelay(channel), "a connection over the limit is closed")
            }
            try await harness.events.wait { Self.count($0) { Self.isRejection($0, "too-many-connections") } == 3 }
            let rejection = harness.events.all.first { Self.isRejection($0, "too-many-connections") }
            if case .connectionRejected(_, let remote, let reason) = rejection {
                #expect(remote.hasPrefix("127.0.0.1:"))
                #expect(reason == .tooManyConnections(address: "127.0.0.1", limit: limit))
                #expect(reason.description.contains("already has 4 connections open"))
            }
            let withinLimitOpen = idle.allSatisfy { $0.isActive }
            #expect(withinLimitOpen, "connections within the limit stay open")
            #expect(Self.count(harness.events.all) { if case .connectionOpened = $0 { true } else { false } } == limit,
                    "refused connections are not registered")

            // Below the limit again, a legitimate player from the same address plays.
            try await idle.removeFirst().close()
            try await idle.removeFirst().close()
            try await harness.events.wait { Self.count($0) { if case .connectionClosed = $0 { true } else { false } } == 2 }
            try await Self.expectPlays(harness, stream: "limited")
        } catch {
            for channel in idle { try? await channel.close() }
            publisher.stop()
            await harness.stop()
            throw error
        }
        for channel in idle { try? await channel.close() }
        publisher.stop()
        await harness.stop()
    }

    @Test("a client that sends nothing or half a handshake is closed after the timeout; publishing and playing go on")
    func handshakeTimeout() async throws {
        let harness = try await RelayTestHarness { $0.handshakeTimeout = .milliseconds(1000) }
        let silent = try await Self.rawConnection(port: harness.port)
        let half = try await Self.rawConnection(port: harness.port)
        do {
            var partial = half.allocator.buffer(capacity: 700)
            partial.writeInteger(UInt8(3))                               // C0: RTMP version 3
            partial.writeRepeatingByte(0, count: 699)                    // and less than half of C1's 1536 bytes
            try await half.writeAndFlush(partial).get()

            #expect(await Self.closedByRelay(silent), "a silent client is closed")
            #expect(await Self.closedByRelay(half), "a client stuck in the handshake is closed")
            try await harness.events.wait { Self.count($0) { Self.isRejection($0, "handshake-timeout") } == 2 }
            let reasons = harness.events.all.compactMap { if case .connectionRejected(_, _, let reason) = $0 { reason } else { nil } }
            #expect(reasons.allSatisfy { $0 == .handshakeTimeout(seconds: 1) })
            #expect(reasons.first?.description == "no RTMP handshake and connect within 1 s (--handshake-timeout)")
            try await harness.events.wait { Self.count($0) { if case .connectionClosed = $0 { true } else { false } } == 2 }

            // The relay is healthy: ffmpeg publishes (its connect beats the timeout) and a player plays.
            let publisher = try harness.ffmpegPublisher(stream: "after", seconds: 30)
            defer { publisher.stop() }
            _ = try await harness.events.first { if case .publishStarted(stream: "after", _, _, _) = $0 { true } else { false } }
            try await Self.expectPlays(harness, stream: "after")
            #expect(Self.count(harness.events.all) { Self.isRejection($0, "handshake-timeout") } == 2,
                    "connections that complete connect in time are not timed out")
        } catch {
            try? await silent.close()
            try? await half.close()
            await harness.stop()
            throw error
        }
        await harness.stop()
    }
}
