import Foundation
@testable import OnAirRelay
@testable import OnAirRelay
@testable import OnAirNet
import OnAirCore
import OnAirRTMP
import OnAirTestSupport
import Testing

/// Red5-style `send()` notices and publish/unpublish notifications reach players (docs/design.md §3, §1.3).
@Suite("Relay notices and publish notifications", .serialized)
struct RelayNoticeTests {
    private static func isStatus(_ code: RTMPStatus.Code) -> (RTMPPlayer.Event) -> Bool {
        { if case .status(let status) = $0 { status.code == code } else { false } }
    }

    @Test("a waiting player gets PublishNotify, the publisher's data messages verbatim, metadata, and UnpublishNotify across a republish")
    func dataMessagesAndNotifications() async throws {
        let harness = try await RelayTestHarness()
        let url = try harness.streamURL("notices")
        let player = try await RelayTestPlayer(url: url)
        var publishers: [RTMPPublisher] = []
        do {
            _ = try await player.events.first(where: Self.isStatus(.playStart))
            _ = try await harness.events.first { $0 == .playStarted(stream: "notices", connection: 1, waiting: true) }
            #expect(Array(player.statusCodes().prefix(2)) == [.playReset, .playStart])

            let publisher = RTMPPublisher(url: url)
            publishers.append(publisher)
            try await publisher.start(type: .live, video: nil, audio: nil)
            _ = try await player.events.first(where: Self.isStatus(.playPublishNotify))
            let metadata = try await player.events.first { if case .metadata = $0 { true } else { false } }
            #expect(metadata == .metadata(FLVMetadata.onMetaData(video: nil, audio: nil).metadataFields))

            let nonce = UUID().uuidString
            let arguments: [AMF0Value] = [
                .string("streamName=notices"), .number(42.5), .boolean(true), .null,
                .object(["nonce": .string(nonce), "list": .strictArray([.number(1), .string("two")])]),
            ]
            try await publisher.send(handler: "publisherBackground", arguments)
            let received = try await player.events.first { if case .message = $0 { true } else { false } }
            // The player hands the arguments on as plain values: AMF0 stays inside OnAirNet.
            #expect(received == .message(handler: "publisherBackground", arguments: [
                .string("streamName=notices"), .number(42.5), .bool(true), .null,
                .object(["nonce": .string(nonce), "list": .array([.number(1), .string("two")])]),
            ]))

            await publisher.stop()
            _ = try await player.events.first(where: Self.isStatus(.playUnpublishNotify))
            _ = try await harness.events.first {
                if case .publishStopped(stream: "notices", _, reason: .unpublished, _) = $0 { true } else { false }
            }

            let again = RTMPPublisher(url: url)
            publishers.append(again)
            try await again.start(type: .live, video: nil, audio: nil)
            try await player.events.wait { events in events.filter(Self.isStatus(.playPublishNotify)).count == 2 }
            try await again.send(handler: "publisherForeground", [.string("streamName=notices")])
            _ = try await player.events.first {
                $0 == .message(handler: "publisherForeground", arguments: [.string("streamName=notices")])
            }
            #expect(!player.events.all.contains { if case .closed = $0 { true } else { false } }, "the player stayed connected")
        } catch {
            for publisher in publishers { await publisher.stop() }
            await player.stop()
            await harness.stop()
            throw error
        }
        for publisher in publishers { await publisher.stop() }
        await player.stop()
        await harness.stop()
    }

    @Test("a notice queued without waiting, then stop at once (the seed's didBecomeActive): the player gets it before UnpublishNotify")
    func queuedNoticeThenStop() async throws {
        let harness = try await RelayTestHarness()
        let url = try harness.streamURL("queued")
        let player = try await RelayTestPlayer(url: url)
        let publisher = RTMPPublisher(url: url)
        do {
            _ = try await player.events.first(where: Self.isStatus(.playStart))
            try await publisher.start(type: .live, video: nil, audio: nil)
            _ = try await player.events.first(where: Self.isStatus(.playPublishNotify))
            publisher.queue(handler: "publisherInterrupt", "streamName=queued")
            await publisher.stop()
            _ = try await player.events.first(where: Self.isStatus(.playUnpublishNotify))
            let notice = RTMPPlayer.Event.message(handler: "publisherInterrupt", arguments: [.string("streamName=queued")])
            let events = player.events.all
            let noticeAt = events.firstIndex(of: notice)
            #expect(noticeAt != nil, "the queued notice never reached the player")
            #expect(noticeAt.map { $0 < events.firstIndex(where: Self.isStatus(.playUnpublishNotify))! } == true, "the stop overtook the notice")
        } catch {
            await publisher.stop()
            await player.stop()
            await harness.stop()
            throw error
        }
        await player.stop()
        await harness.stop()
    }

    @Test("OnAir's data-relay self-test says 'relayed' through the relay, amid real media")
    func dataRelayCheck() async throws {
        let harness = try await RelayTestHarness()
        let made = try await PeerProcess.run("ffmpeg", [
            "-nostdin", "-loglevel", "error", "-f", "lavfi", "-i", "testsrc=size=320x240:rate=30", "-f", "lavfi", "-i", "sine",
            "-c:v", "libx264", "-preset", "ultrafast", "-g", "30", "-bf", "0", "-c:a", "aac", "-t", "4", "-f", "flv", "probe.flv",
        ], in: harness.directory.url)
        try #require(made.status == 0, "\(made.error)")
        let tags = try RelayTestPublisher.tags(ofFile: harness.directory.file("probe.flv"))
        let url = try harness.streamURL("selftest")
        let player: RelayTestPlayer
        let publisher: RelayTestPublisher
        do {
            player = try await RelayTestPlayer(url: url)
            publisher = try await RelayTestPublisher(url: url, type: .live)
        } catch {
            await harness.stop()
            throw error
        }
        do {
            let middle = tags.count / 2
            let check = RTMPDataRelayCheck.random(sentAtTimestamp: Int64(tags[middle].timestamp))
            let probe = FLVTag(type: .scriptData, timestamp: tags[middle].timestamp,
                               data: AMF0Encoder.encode([.string(RTMPDataRelayCheck.handler)] + check.arguments))
            try await publisher.send(Array(tags[..<middle]) + [probe] + Array(tags[middle...]))
            try await player.events.wait { events in
                var observed = check
                return events.contains { observed.observe($0) != nil }
            }
            var verdict = check
            for event in player.events.all { verdict.observe(event) }
            #expect(verdict.verdict == .relayed)
        } catch {
            await publisher.unpublish()
            await player.stop()
            await harness.stop()
            throw error
        }
        await publisher.unpublish()
        await player.stop()
        await harness.stop()
    }

    @Test("killing the publisher process sends UnpublishNotify to its players")
    func killedPublisher() async throws {
        let harness = try await RelayTestHarness()
        let publisher = try harness.ffmpegPublisher(stream: "killed", seconds: 60)
        let player = try await RelayTestPlayer(url: try harness.streamURL("killed"))
        do {
            _ = try await player.events.first { if case .packet(let packet) = $0 { packet.kind == .video } else { false } }
            #expect(publisher.stop(signal: SIGKILL) != 0)
            _ = try await player.events.first(where: Self.isStatus(.playUnpublishNotify))
            _ = try await harness.events.first {
                if case .publishStopped(stream: "killed", _, reason: .disconnected, _) = $0 { true } else { false }
            }
        } catch {
            publisher.stop(signal: SIGKILL)
            await player.stop()
            await harness.stop()
            throw error
        }
        await player.stop()
        await harness.stop()
    }

    @Test("a publisher that goes silent with its socket open is unpublished after the idle timeout")
    func idlePublisher() async throws {
        let harness = try await RelayTestHarness { $0.idleTimeout = .seconds(1) }
        let url = try harness.streamURL("idle")
        let player = try await RelayTestPlayer(url: url)
        let publisher = RTMPPublisher(url: url)
        do {
            try await publisher.start(type: .live, video: nil, audio: nil)
            _ = try await player.events.first(where: Self.isStatus(.playPublishNotify))
            _ = try await player.events.first(where: Self.isStatus(.playUnpublishNotify))
            _ = try await harness.events.first {
                if case .publishStopped(stream: "idle", _, reason: .idle, _) = $0 { true } else { false }
            }
            // The player is connection 1, the publisher 2: the relay closes the idle publisher's socket.
            _ = try await harness.events.first { if case .connectionClosed(connection: 2, _, _) = $0 { true } else { false } }
        } catch {
            await publisher.stop()
            await player.stop()
            await harness.stop()
            throw error
        }
        await publisher.stop()
        await player.stop()
        await harness.stop()
    }
}
