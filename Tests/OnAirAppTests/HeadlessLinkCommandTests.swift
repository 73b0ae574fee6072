import Foundation
import OnAirTestSupport
import Testing

/// Issue 16 on the real binary, headless: the link commands on stdin act on the publisher's own stage, a
/// handoff is reconnected on its own, and `reconnect` (the console's `r`) opens a new connection at once.
@Suite("headless link commands and reconnect now", .serialized)
struct HeadlessLinkCommandTests {
    private func publish(_ port: Int, stream: String, in directory: TemporaryDirectory, stdin: Pipe) throws -> HeadlessRun {
        try HeadlessRun(
            ["publish", "rtmp://127.0.0.1:\(port)/live/\(stream)", "--headless", "--video", "test", "--audio", "test",
             "--size", "320x180", "--link-delay", "0", "--duration", "40"],
            in: directory, standardInput: stdin.fileHandleForReading)
    }

    @Test("stdin handoff resets the connection through the stage; the publisher reconnects on its own and publishes again")
    func handoffReconnects() async throws {
        let directory = try TemporaryDirectory(prefix: "onair-handoff")
        let server = try ServeRun(in: directory)
        defer { server.stop() }
        let stdin = Pipe()
        let publisher = try publish(server.port, stream: "handoff", in: directory, stdin: stdin)
        defer { _ = publisher.peer.stop(signal: SIGKILL) }
        let first = await server.run.waitFor(.seconds(30)) { $0.kind == "publish" }
        #expect(first != nil, "never published: \(publisher.peer.standardError)")
        stdin.fileHandleForWriting.write(Data("handoff 800k 40\n".utf8))
        let link = await publisher.waitFor(.seconds(60)) { $0.kind == "link" && ($0.details["command"] as? String)?.hasPrefix("handoff") == true }
        #expect(link?.details["state"] as? String == "up cap 800k delay 40ms path 1", "\(String(describing: link?.details))")
        let lost = await publisher.waitFor(.seconds(60)) { $0.text.contains("connection lost") }
        #expect(lost != nil, "the handoff did not reset the publisher's connection")
        // Reconnected on its own (OBS's first delay is 2 s): a second publish of the stream at the server.
        let republished = try await server.waitForMore("publish", than: 1, within: .seconds(60))
        #expect(republished != nil, "no new publish after the handoff:\n\(server.run.peer.standardOutput)")
        let stats = await publisher.waitFor(.seconds(60)) { $0.kind == "stats" && ($0.details["link"] as? String)?.contains("path 1") == true }
        #expect(stats != nil, "stats carry no link field")
        stdin.fileHandleForWriting.write(Data("quit\n".utf8))
        await publisher.peer.exitStatus(within: .seconds(20))
        #expect(publisher.events.malformed.isEmpty, "lines outside the schema: \(publisher.events.malformed)")
    }

    @Test("reconnect while publishing opens a new connection at the server at once, not after the 2 s backoff")
    func reconnectNow() async throws {
        let directory = try TemporaryDirectory(prefix: "onair-reconnect")
        let server = try ServeRun(in: directory)
        defer { server.stop() }
        let stdin = Pipe()
        let publisher = try publish(server.port, stream: "again", in: directory, stdin: stdin)
        defer { _ = publisher.peer.stop(signal: SIGKILL) }
        let first = await server.run.waitFor(.seconds(30)) { $0.kind == "publish" }
        #expect(first != nil, "never published: \(publisher.peer.standardError)")
        try await Task.sleep(for: .seconds(1))
        let connections = server.count("connection")
        stdin.fileHandleForWriting.write(Data("reconnect\n".utf8))
        let elapsed = try await server.waitForMore("connection", than: connections, within: .seconds(60))
        #expect(elapsed != nil, "no new connection at the server")
        #expect(elapsed.map { $0 < .seconds(2) } != false, "the new connection came after \(String(describing: elapsed)), as a backoff would")
        let republished = try await server.waitForMore("publish", than: 1, within: .seconds(60))
        #expect(republished != nil, "not published again:\n\(server.run.peer.standardOutput)")
        stdin.fileHandleForWriting.write(Data("link-cap 9\nquit\n".utf8))
        await publisher.peer.exitStatus(within: .seconds(20))
        #expect(publisher.events.events.contains { $0.kind == "error" && $0.text.contains("'9' is not a rate") }, "a bad link-cap value is not explained")
    }

    @Test("demo: sub link-down stalls only the subscriber's own phone; sub link-up brings it back to PLAYING")
    func subscriberOwnLink() async throws {
        let directory = try TemporaryDirectory(prefix: "onair-sublink")
        let stdin = Pipe()
        let demo = try HeadlessRun(
            ["demo", "--headless", "--size", "320x180", "--stall-timeout", "2", "--record-dir", directory.url.appendingPathComponent("rec").path,
             "--duration", "40"],
            in: directory, standardInput: stdin.fileHandleForReading)
        defer { _ = demo.peer.stop(signal: SIGKILL) }
        func subscriber(_ status: String) -> (HeadlessRun.Event) -> Bool {
            { $0.side == "subscriber" && $0.kind == "state" && $0.details["connection"] as? String == status }
        }
        #expect(await demo.waitFor(.seconds(30), subscriber("PLAYING")) != nil, "never playing: \(demo.peer.standardError)")
        stdin.fileHandleForWriting.write(Data("sub link-down\n".utf8))
        let down = await demo.waitFor(.seconds(60)) { $0.side == "subscriber" && $0.kind == "link" }
        #expect(down?.details["state"] as? String == "down")
        #expect(await demo.waitFor(.seconds(60), subscriber("STALLED")) != nil, "the subscriber did not stall behind its own link")
        let publisherStalled = demo.events.events.contains { $0.side == "publisher" && $0.kind == "state" && $0.details["status"] as? String == "STALLED" }
        #expect(!publisherStalled, "the subscriber's link stalled the publisher")
        let playingBefore = demo.events.events.filter(subscriber("PLAYING")).count
        stdin.fileHandleForWriting.write(Data("sub link-up\n".utf8))
        let deadline = ContinuousClock.now + .seconds(60)
        while demo.events.events.filter(subscriber("PLAYING")).count <= playingBefore, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(50))
        }
        #expect(demo.events.events.filter(subscriber("PLAYING")).count > playingBefore, "not PLAYING again after sub link-up")
        stdin.fileHandleForWriting.write(Data("quit\n".utf8))
        await demo.peer.exitStatus(within: .seconds(20))
        #expect(demo.events.malformed.isEmpty, "lines outside the schema: \(demo.events.malformed)")
    }

    @Test("publish connects directly unless --link-* asks for the stage: a link command is refused with the reason (logged and toasted as every refusal); --link-* with --direct is a usage error")
    func directHasNoStage() async throws {
        let directory = try TemporaryDirectory(prefix: "onair-direct")
        let server = try ServeRun(in: directory)
        defer { server.stop() }
        let stdin = Pipe()
        let publisher = try HeadlessRun(
            ["publish", "rtmp://127.0.0.1:\(server.port)/live/direct", "--headless", "--video", "test", "--audio", "test",
             "--size", "320x180", "--duration", "40"],
            in: directory, standardInput: stdin.fileHandleForReading)
        defer { _ = publisher.peer.stop(signal: SIGKILL) }
        let first = await server.run.waitFor(.seconds(30)) { $0.kind == "publish" }
        #expect(first != nil, "never published: \(publisher.peer.standardError)")
        stdin.fileHandleForWriting.write(Data("link-down\n".utf8))
        let refused = await publisher.waitFor(.seconds(60)) { $0.kind == "error" && $0.text.contains("no link stage") }
        #expect(refused != nil, "link-down was not refused:\n\(publisher.peer.standardOutput)")
        // The one gate records it as every refusal: in the publisher's event log, and as a toast.
        let logged = await publisher.waitFor(.seconds(10)) { $0.side == "publisher" && $0.kind == "key" && $0.text.hasPrefix("refused: link-down: no link stage") }
        #expect(logged != nil, "the refusal is not in the publisher's log:\n\(publisher.peer.standardOutput)")
        let toast = await publisher.waitFor(.seconds(10)) { $0.side == "publisher" && $0.kind == "toast" && $0.text.hasPrefix("link-down: no link stage") }
        #expect(toast != nil, "the refusal was not toasted:\n\(publisher.peer.standardOutput)")
        #expect(!publisher.events.events.contains { $0.kind == "link" }, "a link event without a stage")
        stdin.fileHandleForWriting.write(Data("quit\n".utf8))
        await publisher.peer.exitStatus(within: .seconds(20))

        let usage = try OnAirBinary.run(["publish", "rtmp://127.0.0.1:1/live/x", "--headless", "--direct", "--link-cap", "800k"])
        #expect(usage.status == 2, "\(usage.standardError)")
        #expect(usage.standardError.contains("--direct"), "\(usage.standardError)")
    }
}
