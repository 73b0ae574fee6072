import Foundation
import NIOCore
import NIOPosix
@testable import OnAirRelay
import OnAirCore
import OnAirRTMP
import OnAirTestSupport
import Testing

/// The real `onair serve` binary: where it listens, JSON Lines, clean stop on SIGINT, one-line errors.
@Suite("onair serve", .serialized)
struct RelayServeCommandTests {
    /// `.build/<config>/onair`, next to the test bundle.
    static var binary: String {
        var directory = Bundle.main.bundleURL
        for _ in 0..<4 where !FileManager.default.fileExists(atPath: directory.appendingPathComponent("onair").path) {
            directory = directory.deletingLastPathComponent()
        }
        return directory.appendingPathComponent("onair").path
    }

    @Test("serves, logs JSON Lines, and on SIGINT closes a live recording intact and exits 0")
    func servesAndStopsCleanly() async throws {
        let directory = try TemporaryDirectory(prefix: "onair-serve")
        // Port 0: the kernel picks, `listening` says which — no window for another test to take it. The 5 s
        // default handshake bound is not what this test is about, and at load 5–6 a server that accepted 8 s
        // late then timed the test's handshake out: 60 s here. Nor are the 15 s idle bounds, which a starved test
        // publisher must not race (the in-process harness lifts them for the same reason, issue 24): 2 minutes.
        let serve = try PeerProcess(Self.binary, [
            "serve", "--listen", "127.0.0.1:0", "--record-dir", directory.file("rec").path, "--headless",
            "--handshake-timeout", "60", "--idle-timeout", "120", "--connect-idle-timeout", "120",
        ], in: directory.url)
        defer { serve.stop(signal: SIGKILL) }
        let port = try await serve.onairServeListeningPort()
        #expect(port > 0)
        let publisher: RelayTestPublisher
        do {
            publisher = try await RelayTestPublisher(url: try StreamURL("rtmp://127.0.0.1:\(port)/live/show"), type: .record)
        } catch {
            // Once, at load 7: "rejected connect" after 10 s. Say what the server itself reported.
            Issue.record("publishing to onair serve failed: \(error); its events: \(serve.standardOutput)")
            return
        }
        try await publisher.send(RelayTestPublisher.syntheticVideo(count: 45, size: 2000))
        try await publisher.sync()
        let status = serve.stop(signal: SIGINT, grace: .seconds(20))
        await publisher.drop()
        #expect(status == 0, "\(serve.standardError)")

        let lines = serve.standardOutput.split(separator: "\n")
        let events = try lines.map { try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] ?? [:] }
        #expect(events.allSatisfy { $0["side"] as? String == "relay" && $0["time"] is NSNumber && $0["details"] is [String: Any] })
        let kinds = events.compactMap { $0["kind"] as? String }
        for kind in ["listening", "connection", "publish", "unpublish", "recordingStopped", "stopped"] {
            #expect(kinds.contains(kind), "no \(kind) in \(kinds)")
        }


        let file = try Data(contentsOf: directory.file("rec/show.flv"))
        let readBack = try FLVFileReader.readAll(ByteBuffer(bytes: file))
        #expect(!readBack.isTruncated)
        #expect(readBack.tags.count == 45, "every tag sent before SIGINT is in the file")
    }

    @Test("refuses with one line and a non-zero exit", arguments: [
        (["--listen", "0.0.0.0:19999"], "--publish-key"),
        (["--listen", "nonsense"], "bad listen address"),
        (["--listen", "127.0.0.1:99999"], "bad listen address"),
        (["--handshake-timeout", "0"], "--handshake-timeout"),
        (["--max-connections-per-address=-1"], "--max-connections-per-address"),
        (["--audio-merge-ms", "5000"], "--audio-merge-ms"),
    ])
    func refuses(_ options: [String], _ expected: String) async throws {
        let directory = try TemporaryDirectory(prefix: "onair-serve")
        let result = try await PeerProcess.run(Self.binary, ["serve"] + options, in: directory.url, timeout: .seconds(20))
        #expect(result.status != 0)
        let lines = result.error.split(separator: "\n")
        #expect(lines.count == 1 && lines.first?.contains(expected) == true, "\(result.error)")
    }

    /// The second connection is over the limit only while the first is open, so the first's handshake timeout is
    /// the time the test has to open the second: a few milliseconds idle; it was 0.5 s, thin on a loaded machine
    /// (issue 24), and is 10 s. The first's close is awaited as an event, so this is only how long the test takes.
    @Test("logs limit rejections as JSON Lines with a code and a readable reason", .timeLimit(.minutes(3)))
    func logsRejections() async throws {
        let directory = try TemporaryDirectory(prefix: "onair-serve")
        let serve = try PeerProcess(Self.binary, [
            "serve", "--listen", "127.0.0.1:0", "--record-dir", directory.file("rec").path, "--headless",
            "--handshake-timeout", "10", "--max-connections-per-address", "1", "--limit-loopback",
        ], in: directory.url)
        defer { serve.stop(signal: SIGKILL) }
        let port = try await serve.onairServeListeningPort()
        let first = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton).connect(host: "127.0.0.1", port: port).get()
        // The second is over the limit of 1 only once the first is registered.
        let deadline = ContinuousClock.now + .seconds(20)
        while !serve.standardOutput.contains("\"connection\"") && ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(20))
        }
        let second = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton).connect(host: "127.0.0.1", port: port).get()
        try await first.closeFuture.get()            // the handshake timeout closes it
        try await second.closeFuture.get()           // the limit closed it at once
        #expect(serve.stop(signal: SIGINT, grace: .seconds(20)) == 0)

        let events = serve.standardOutput.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
        let rejections = events.filter { $0["kind"] as? String == "rejected" }.compactMap { $0["details"] as? [String: Any] }
        #expect(Set(rejections.compactMap { $0["code"] as? String }) == ["too-many-connections", "handshake-timeout"], "\(serve.standardOutput)")
        #expect(rejections.allSatisfy { ($0["reason"] as? String)?.isEmpty == false && ($0["remote"] as? String)?.hasPrefix("127.0.0.1:") == true })
    }

    /// A directory that can never be written stops the start when recordings are certain to be wanted; with
    /// the defaults (by-type, ./recordings) nothing is made until a publish records, so serving still starts.
    @Test("a record directory that cannot be made is one line and exit 1 at start", arguments: [
        (["--record-dir", "blocker/rec"], "blocker/rec"),
        (["--record", "all", "--record-dir", "blocker"], "blocker"),
    ])
    func unwritableRecordDirectory(_ options: [String], _ asked: String) async throws {
        let directory = try TemporaryDirectory(prefix: "onair-serve")
        try Data("in the way".utf8).write(to: directory.file("blocker"))
        let result = try await PeerProcess.run(Self.binary, ["serve", "--listen", "127.0.0.1:0"] + options, in: directory.url, timeout: .seconds(20))
        #expect(result.status == 1)
        let lines = result.error.split(separator: "\n")
        // The path asked for, then (when it is a parent) the component in the way, in the system's words.
        let blocker = directory.file("blocker").path
        let reason = asked == "blocker" ? "\(blocker): Not a directory" : "\(directory.file(asked).path): \(blocker): Not a directory"
        #expect(lines.count == 1 && lines.first?.contains("cannot create record directory \(reason)") == true, "\(result.error)")
        #expect(lines.first?.contains("--record none") == true, "\(result.error)")
    }

    @Test("with the default record directory blocked, serve starts and says so only when a publish records")
    func defaultRecordDirectoryIsLazy() async throws {
        let directory = try TemporaryDirectory(prefix: "onair-serve")
        try Data("in the way".utf8).write(to: directory.file("recordings"))
        let serve = try PeerProcess(Self.binary, [
            "serve", "--listen", "127.0.0.1:0", "--headless", "--handshake-timeout", "60", "--idle-timeout", "120",
            "--connect-idle-timeout", "120",
        ], in: directory.url)
        defer { serve.stop(signal: SIGKILL) }
        let port = try await serve.onairServeListeningPort()
        let publisher = try await RelayTestPublisher(url: try StreamURL("rtmp://127.0.0.1:\(port)/live/show"), type: .record)
        try await publisher.sync()
        await publisher.drop()
        #expect(serve.stop(signal: SIGINT, grace: .seconds(20)) == 0)
        #expect(serve.standardOutput.contains("\"recordingFailed\""), "\(serve.standardOutput)")
        #expect(serve.standardOutput.contains("recordings: Not a directory"), "\(serve.standardOutput)")
    }

    @Test("a port in use is one line and a non-zero exit")
    func portInUse() async throws {
        let harness = try await RelayTestHarness()
        let directory = try TemporaryDirectory(prefix: "onair-serve")
        let result = try await PeerProcess.run(Self.binary, ["serve", "--listen", "127.0.0.1:\(harness.port)"], in: directory.url, timeout: .seconds(20))
        await harness.stop()
        #expect(result.status == 1)
        #expect(result.error.split(separator: "\n").count == 1 && result.error.contains("in use"), "\(result.error)")
    }
}
