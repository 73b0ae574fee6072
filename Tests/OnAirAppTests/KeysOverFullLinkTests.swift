import Foundation
import OnAirNet
import OnAirTestSupport
import Testing

/// Issue 15, "the UI never awaits the network": with the link down (the stage reads nothing, the sockets
/// stay open) the publisher's socket fills and takes nothing more; keys whose flows send a notice
/// (`home` sends publisherBackground, `return` publisherForeground) must still be applied at once, because
/// the notice is queued on the connection instead of awaited by the loop.
@Suite("keys over a link that accepts nothing", .serialized)
struct KeysOverFullLinkTests {
    /// How soon a key's state change must be printed. The loop turns on every input, so this is only the
    /// process's scheduling under load; a loop that waits for the socket never prints it, as the socket stays
    /// full for the whole --send-timeout (60 s, more than three answers at this bound). Was 3 s; 10 s and the
    /// serial phase of `make test`, since it and the quit's bound measure the process's scheduling (issue 24).
    static let answerBound: Duration = .seconds(10)

    @Test("link down until the socket takes nothing: home, return and pause-video are answered at once")
    func keysWhileTheSocketIsFull() async throws {
        let directory = try TemporaryDirectory(prefix: "onair-fulllink")
        let server = try ServeRun(in: directory)
        defer { server.stop() }
        let stdin = Pipe()
        // A long --send-timeout keeps the watchdog from tearing the connection down during the test, so the
        // socket stays full the whole time.
        let publisher = try HeadlessRun(
            ["publish", "rtmp://127.0.0.1:\(server.port)/live/full", "--headless", "--video", "test", "--audio", "test",
             "--size", "640x360", "--bitrate", "4M", "--send-timeout", "60", "--link-delay", "0", "--duration", "300"],
            in: directory, standardInput: stdin.fileHandleForReading)
        defer { _ = publisher.peer.stop(signal: SIGKILL) }
        let live = await publisher.waitFor(.seconds(60)) { $0.kind == "state" && $0.details["status"] as? String == "PUBLISHING" }
        #expect(live != nil, "never published: \(publisher.peer.standardError)")
        stdin.fileHandleForWriting.write(Data("link-down\n".utf8))
        #expect(await publisher.waitFor(.seconds(60)) { $0.kind == "link" && $0.details["state"] as? String == "down" } != nil)
        // Full: the socket took no byte over three one-second `stats` in a row.
        let full = await waitUntilSocketTakesNothing(publisher, within: .seconds(40))
        #expect(full, "the socket kept taking bytes with the link down:\n\(publisher.peer.standardOutput)")
        for (command, lifecycle, pauseVideo) in [("home", "BACKGROUND", true), ("return", "ACTIVE", false), ("pause-video", "ACTIVE", true)] {
            let seen = publisher.events.events.count
            let asked = ContinuousClock.now
            stdin.fileHandleForWriting.write(Data("\(command)\n".utf8))
            let answer = await waitForNew(publisher, after: seen, within: Self.answerBound) {
                $0.kind == "state" && $0.details["lifecycle"] as? String == lifecycle && $0.details["pauseVideo"] as? Bool == pauseVideo
            }
            #expect(answer != nil, "\(command) not answered within \(Self.answerBound) while the link accepts nothing")
            if answer != nil { #expect(ContinuousClock.now - asked < Self.answerBound) }
        }
        // Still full: the keys were answered over a socket that takes nothing, not after it drained.
        let counts = publisher.events.events.filter { $0.kind == "stats" }.suffix(2).compactMap { $0.details["bytesSent"] as? Int }
        #expect(counts.count == 2 && counts[0] == counts[1], "the socket took bytes meanwhile: \(counts)")
        let quitAt = ContinuousClock.now
        stdin.fileHandleForWriting.write(Data("quit\n".utf8))
        // A stop waits a bounded time for what was queued before it, but not over a link known to be down:
        // nothing queued could leave, so the quit does not sit out the drain limit.
        #expect(await publisher.peer.exitStatus(within: .seconds(20)) == 0)
        let quitTook = ContinuousClock.now - quitAt
        #expect(quitTook < RTMPPublisher.drainLimit, "quit over a link that is down took \(quitTook)")
        #expect(publisher.events.malformed.isEmpty, "lines outside the schema: \(publisher.events.malformed)")
    }

    private func waitUntilSocketTakesNothing(_ run: HeadlessRun, within limit: Duration) async -> Bool {
        let deadline = ContinuousClock.now + limit
        while ContinuousClock.now < deadline {
            let sent = run.events.events.filter { $0.kind == "stats" }.suffix(3).compactMap { $0.details["bytesSent"] as? Int }
            if sent.count == 3, Set(sent).count == 1 { return true }
            try? await Task.sleep(for: .milliseconds(200))
        }
        return false
    }

    private func waitForNew(
        _ run: HeadlessRun, after seen: Int, within limit: Duration, _ predicate: (HeadlessRun.Event) -> Bool
    ) async -> HeadlessRun.Event? {
        let deadline = ContinuousClock.now + limit
        while ContinuousClock.now < deadline {
            if let match = run.events.events.dropFirst(seen).first(where: predicate) { return match }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return nil
    }
}
