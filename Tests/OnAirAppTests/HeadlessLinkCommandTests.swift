import Foundation
import OnAirTestSupport
import Testing

/// Issue 16 on the real binary, headless: the link commands on stdin act on the publisher's own stage, a
/// handoff is reconnected on its own, and `reconnect` (the console's `r`) opens a new connection at once.
@Suite("headless link commands and reconnect now", .serialized)
struct HeadlessLinkCommandTests {
    /// `onair serve --headless` on a free loopback port, its events parsed like the publisher's.
    private func serve(in directory: TemporaryDirectory) throws -> (HeadlessRun, Int) {
        let port = try FreePort.loopback()
        let serve = try HeadlessRun(["serve", "--listen", "127.0.0.1:\(port)", "--headless"], in: directory)
        try FreePort.waitUntilAccepting(port, timeout: .seconds(60), what: "onair serve")
        return (serve, port)
    }

    private func publish(_ port: Int, stream: String, in directory: TemporaryDirectory, stdin: Pipe) throws -> HeadlessRun {
        try HeadlessRun(
            ["publish", "rtmp://127.0.0.1:\(port)/live/\(stream)", "--headless", "--video", "test", "--audio", "test",
             "--size", "320x180", "--duration", "40"],
            in: directory, standardInput: stdin.fileHandleForReading)
    }

    private func count(_ run: HeadlessRun, _ kind: String) -> Int { run.events.events.filter { $0.kind == kind }.count }

    @Test("stdin handoff resets the connection through the stage; the publisher reconnects on its own and publishes again")
    func handoffReconnects() async throws {
        let directory = try TemporaryDirectory(prefix: "onair-handoff")
        let (server, port) = try serve(in: directory)
        defer { _ = server.peer.stop(signal: SIGKILL) }
        let stdin = Pipe()
        let publisher = try publish(port, stream: "handoff", in: directory, stdin: stdin)
        defer { _ = publisher.peer.stop(signal: SIGKILL) }
        let first = await server.waitFor(.seconds(30)) { $0.kind == "publish" }
        #expect(first != nil, "never published: \(publisher.peer.standardError)")
        stdin.fileHandleForWriting.write(Data("handoff 800k 40\n".utf8))
        let link = await publisher.waitFor(.seconds(5)) { $0.kind == "link" && ($0.details["command"] as? String)?.hasPrefix("handoff") == true }
        #expect(link?.details["state"] as? String == "up cap 800k delay 40ms path 1", "\(String(describing: link?.details))")
        let lost = await publisher.waitFor(.seconds(10)) { $0.text.contains("connection lost") }
        #expect(lost != nil, "the handoff did not reset the publisher's connection")
        // Reconnected on its own (OBS's first delay is 2 s): a second publish of the stream at the server.
        let deadline = ContinuousClock.now + .seconds(20)
        while count(server, "publish") < 2, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(100)) }
        #expect(count(server, "publish") >= 2, "no new publish after the handoff:\n\(server.peer.standardOutput)")
        let stats = await publisher.waitFor(.seconds(5)) { $0.kind == "stats" && ($0.details["link"] as? String)?.contains("path 1") == true }
        #expect(stats != nil, "stats carry no link field")
        stdin.fileHandleForWriting.write(Data("quit\n".utf8))
        await publisher.peer.exitStatus(within: .seconds(20))
        #expect(publisher.events.malformed.isEmpty, "lines outside the schema: \(publisher.events.malformed)")
    }

    @Test("reconnect while publishing opens a new connection at the server at once, not after the 2 s backoff")
    func reconnectNow() async throws {
        let directory = try TemporaryDirectory(prefix: "onair-reconnect")
        let (server, port) = try serve(in: directory)
        defer { _ = server.peer.stop(signal: SIGKILL) }
        let stdin = Pipe()
        let publisher = try publish(port, stream: "again", in: directory, stdin: stdin)
        defer { _ = publisher.peer.stop(signal: SIGKILL) }
        let first = await server.waitFor(.seconds(30)) { $0.kind == "publish" }
        #expect(first != nil, "never published: \(publisher.peer.standardError)")
        try await Task.sleep(for: .seconds(1))
        let connections = count(server, "connection")
        stdin.fileHandleForWriting.write(Data("reconnect\n".utf8))
        let asked = ContinuousClock.now
        while count(server, "connection") <= connections, ContinuousClock.now - asked < .seconds(10) {
            try await Task.sleep(for: .milliseconds(20))
        }
        let elapsed = ContinuousClock.now - asked
        #expect(count(server, "connection") > connections, "no new connection at the server")
        #expect(elapsed < .seconds(2), "the new connection came after \(elapsed), as a backoff would")
        let deadline = ContinuousClock.now + .seconds(15)
        while count(server, "publish") < 2, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(100)) }
        #expect(count(server, "publish") >= 2, "not published again:\n\(server.peer.standardOutput)")
        stdin.fileHandleForWriting.write(Data("link-cap 9\nquit\n".utf8))
        await publisher.peer.exitStatus(within: .seconds(20))
        #expect(publisher.events.events.contains { $0.kind == "error" && $0.text.contains("'9' is not a rate") }, "a bad link-cap value is not explained")
    }
}
