import Foundation
@testable import OnAirRelay
@testable import OnAirRelay
@testable import OnAirNet
import OnAirCore
import OnAirRTMP
import OnAirTestSupport
import Testing

/// What the relay checks before a publish reaches the registry or the disk (docs/design.md §3).
@Suite("Relay publish checks", .serialized)
struct RelayPublishCheckTests {
    private static func refusal(_ url: StreamURL, type: PublishType = .record) async -> RTMPStatus? {
        do {
            let publisher = try await RelayTestPublisher(url: url, type: type)
            await publisher.unpublish()
            return nil
        } catch RTMPClient.Error.publishRejected(let status) {
            return status
        } catch {
            Issue.record("unexpected error: \(error)")
            return nil
        }
    }

    private static func files(under directory: URL) -> [String] {
        (FileManager.default.enumerator(atPath: directory.path)?.allObjects as? [String] ?? []).sorted()
    }

    @Test("path-traversal, empty and control-character names get BadName and never reach the disk", arguments: [
        "../escaped", "../../etc/passwd", "/etc/passwd", "", "..", ".", "sub/dir", "bell\u{7}", "new\nline", "a b",
    ])
    func badNames(_ name: String) async throws {
        let harness = try await RelayTestHarness()
        let before = Self.files(under: harness.directory.url)
        var url = try harness.streamURL("placeholder")
        url.streamName = name
        let status = await Self.refusal(url)
        #expect(status?.code == .publishBadName, "\(String(describing: status))")
        _ = try await harness.events.first { if case .publishRefused(_, _, "NetStream.Publish.BadName", _) = $0 { true } else { false } }
        await harness.stop()
        #expect(Self.files(under: harness.directory.url) == before, "no file appeared")
        #expect(!FileManager.default.fileExists(atPath: harness.directory.file("escaped.flv").path))
        #expect(!FileManager.default.fileExists(atPath: "/etc/passwd.flv"))
        #expect(!harness.events.all.contains { if case .recordingStarted = $0 { true } else { false } })
    }

    @Test("a second publisher of a live name gets BadName; the first keeps publishing")
    func secondPublisher() async throws {
        let harness = try await RelayTestHarness()
        let url = try harness.streamURL("taken")
        let first = try await RelayTestPublisher(url: url, type: .live)
        let status = await Self.refusal(url, type: .live)
        #expect(status?.code == .publishBadName)
        #expect(status?.description.contains("already being published") == true)
        let streams = try await harness.relay.streams()
        #expect(streams.map(\.name) == ["taken"] && streams.first?.isPublished == true)
        await first.unpublish()
        await harness.stop()
    }

    @Test("with a publish key, publishers need ?key= (or the app query) and players need nothing")
    func publishKey() async throws {
        let harness = try await RelayTestHarness { $0.publishKey = "s3cret" }
        let status = await Self.refusal(try harness.streamURL("keyed"), type: .live)
        #expect(status?.code == RelayStatus.publishRejected)
        let wrong = await Self.refusal(try harness.streamURL("keyed?key=guess"), type: .live)
        #expect(wrong?.code == RelayStatus.publishRejected)

        let publisher = try await RelayTestPublisher(url: try harness.streamURL("keyed?key=s3cret"), type: .live)
        let player = try await RelayTestPlayer(url: try harness.streamURL("keyed"))
        _ = try await player.events.first { if case .status(let status) = $0 { status.code == .playStart } else { false } }
        await publisher.unpublish()
        _ = try await player.events.first { if case .status(let status) = $0 { status.code == .playUnpublishNotify } else { false } }

        var appURL = try harness.streamURL("keyed2")
        appURL.app = "live?key=s3cret"                  // connect's app and tcUrl carry the key
        let viaApp = try await RelayTestPublisher(url: appURL, type: .live)
        await viaApp.unpublish()
        await player.stop()
        await harness.stop()
    }

    @Test("listening beyond loopback needs a key; bad addresses are refused with a readable reason")
    func configurationChecks() throws {
        #expect(throws: RelayConfiguration.Error.keyRequired(host: "0.0.0.0")) {
            try RelayConfiguration(listen: "0.0.0.0:1935", publishKey: nil)
        }
        #expect(try RelayConfiguration(listen: "0.0.0.0:1935", publishKey: "k").host == "0.0.0.0")
        #expect(try RelayConfiguration(listen: "[::1]:1936", publishKey: nil).port == 1936)
        #expect(try RelayConfiguration(listen: "localhost:1937", publishKey: nil).host == "127.0.0.1")
        for bad in ["1935", "127.0.0.1:", "127.0.0.1:70000", "127.0.0.1:x", ":1935"] {
            #expect(throws: RelayConfiguration.Error.badAddress(bad)) { try RelayConfiguration(listen: bad, publishKey: nil) }
        }
    }

    @Test("a port in use is a one-line error")
    func portInUse() async throws {
        let harness = try await RelayTestHarness()
        var configuration = RelayConfiguration()
        configuration.port = harness.port
        await #expect(throws: RelayServer.Error.addressInUse(host: "127.0.0.1", port: harness.port)) {
            _ = try await RelayServer.start(configuration)
        }
        await harness.stop()
    }
}
