import Foundation
import OnAirCore
import OnAirLink
import OnAirTestSupport
import Testing

/// Issue 13 on the real binary in a real terminal (tmux): what the screen says is what the wire carried.
@Suite("Truth on screen", .serialized)
struct TruthConsoleTests {
    private func pane(_ screen: String, publisher: Bool) -> String { DemoScreen.pane(screen, publisher: publisher) }

    /// `onair serve` on a free loopback port.
    private func serve(in directory: TemporaryDirectory) throws -> (PeerProcess, Int) {
        let port = try FreePort.loopback()
        let serve = try PeerProcess(OnAirBinary.url.path, ["serve", "--listen", "127.0.0.1:\(port)", "--headless"], in: directory.url)
        try FreePort.waitUntilAccepting(port, timeout: .seconds(60), what: "onair serve")
        return (serve, port)
    }

    private func shell(_ arguments: String) -> String {
        "\(OnAirBinary.url.path) \(arguments); echo ONAIR-EXIT=$?; sleep 60"
    }

    @Test("onair subscribe to a stream nobody publishes shows WAITING FOR PUBLISHER, never PLAYING")
    func subscribeToNobody() async throws {
        let directory = try TemporaryDirectory()
        let (server, port) = try serve(in: directory)
        defer { _ = server.stop(signal: SIGKILL) }
        let tmux = try TmuxSession(command: shell("subscribe rtmp://127.0.0.1:\(port)/live/nobody"), width: 100, height: 30, directory: directory.url)
        let waiting = try await tmux.waitForScreen(timeout: .seconds(30)) { $0.contains("WAITING FOR PUBLISHER") }
        #expect(waiting.matched, "no WAITING FOR PUBLISHER:\n\(waiting.screen)")
        // Past the stall timeout and a few refreshes, still not PLAYING.
        let playing = try await tmux.waitForScreen(timeout: .seconds(5)) { $0.contains(" PLAYING ") }
        #expect(!playing.matched, "PLAYING with nobody publishing:\n\(playing.screen)")
        #expect(playing.screen.contains("WAITING FOR PUBLISHER"))
        try tmux.send("q")
    }

    @Test("after x the publisher's bitrate reads 0 within 2 s")
    func bitrateFallsAfterStop() async throws {
        let directory = try TemporaryDirectory()
        let tmux = try TmuxSession(command: shell("demo --size 320x180 --record-dir \(directory.url.path)/rec"), directory: directory.url)
        let live = try await tmux.waitForScreen(timeout: .seconds(30)) { screen in
            let publisher = pane(screen, publisher: true)
            return publisher.contains(" PUBLISHING ") && publisher.contains(" kb/s") && !publisher.contains("bitrate  0 b/s")
        }
        #expect(live.matched, "never publishing with a bitrate:\n\(live.screen)")
        try tmux.send("x")
        let stopped = ContinuousClock.now
        let zero = try await tmux.waitForScreen(timeout: .seconds(2)) { pane($0, publisher: true).contains("bitrate  0 b/s") }
        #expect(zero.matched, "the publisher's bitrate did not read 0 within 2 s of x (\(ContinuousClock.now - stopped)):\n\(zero.screen)")
        try tmux.send("q")
    }

    @Test("c, p, d ends where a tap or return publishes video again", arguments: PublisherPolicyKind.allCases)
    func callPolicyDecline(policy: PublisherPolicyKind) async throws {
        let directory = try TemporaryDirectory()
        let tmux = try TmuxSession(
            command: shell("demo --policy \(policy.rawValue) --size 320x180 --record-dir \(directory.url.path)/rec"), directory: directory.url)
        let live = try await tmux.waitForScreen(timeout: .seconds(30)) { screen in
            pane(screen, publisher: true).contains(" PUBLISHING ") && pane(screen, publisher: false).contains(" PLAYING ")
        }
        #expect(live.matched, "never publishing and playing:\n\(live.screen)")
        // Each key's effect is waited for on screen, not a fixed pause: the call makes the app INACTIVE, `p`
        // shows the waiting switch (→), and only then is the call declined.
        try tmux.send("c")
        let ringing = try await tmux.waitForScreen(timeout: .seconds(60)) { pane($0, publisher: true).contains("app INACTIVE") }
        #expect(ringing.matched, "the call never made the app INACTIVE:\n\(ringing.screen)")
        try tmux.send("p")
        let waiting = try await tmux.waitForScreen(timeout: .seconds(60)) { screen in
            let publisher = pane(screen, publisher: true)
            return ["→ ", "→"].contains { publisher.contains($0 + policy.next.rawValue) }
        }
        #expect(waiting.matched, "p during the call shows no waiting switch:\n\(waiting.screen)")
        try tmux.send("d")
        let settled = try await tmux.waitForScreen(timeout: .seconds(60)) { screen in
            let publisher = pane(screen, publisher: true)
            return publisher.contains("app ACTIVE")
                && [" IDLE ", " PUBLISHING ", " CONNECTING ", " AWAITING TAP "].contains { publisher.contains($0) }
        }
        #expect(settled.matched, "c p d did not settle in an active state:\n\(settled.screen)")
        if policy == .tapRepublish {
            // The decline offers "Tap to Re-Publish!": the tap stays armed, the switch waits for it.
            let publisher = pane(settled.screen, publisher: true)
            #expect(publisher.contains(" AWAITING TAP ") && publisher.contains("● tapArmed"), "the decline's tap is not armed:\n\(settled.screen)")
            #expect(["tap-republish → ", "tap-republish→"].contains { publisher.contains($0 + policy.next.rawValue) },
                    "the waiting switch is not shown:\n\(settled.screen)")
        } else {
            #expect(pane(settled.screen, publisher: true).contains(policy.next.rawValue), "p takes effect when the call ends:\n\(settled.screen)")
        }
        if !pane(settled.screen, publisher: true).contains(" PUBLISHING ") && !pane(settled.screen, publisher: true).contains(" CONNECTING ") {
            try tmux.send("Space")
        }
        let again = try await tmux.waitForScreen(timeout: .seconds(20)) { screen in
            let publisher = pane(screen, publisher: true)
            return publisher.contains(" PUBLISHING ") && publisher.contains("○ pauseVideo") && !publisher.contains("fps      0.0")
                && pane(screen, publisher: false).contains(" PLAYING ")
        }
        let after = pane(again.screen, publisher: true)
        #expect(after.contains("policy   \(policy.next.rawValue)") && !after.contains("\(policy.next.rawValue)→") && !after.contains("\(policy.next.rawValue) →"), "the next policy is not in force:\n\(again.screen)")
        #expect(again.matched, "video is not published again after c p d under \(policy.rawValue):\n\(again.screen)")
        try tmux.send("q")
    }

    @Test("a link that accepts nothing: STALLED within 6 s, torn down and reconnected after the limit")
    func stalledLinkReconnects() async throws {
        let directory = try TemporaryDirectory()
        let (server, port) = try serve(in: directory)
        defer { _ = server.stop(signal: SIGKILL) }
        let proxy = try LinkImpairment(targetHost: "127.0.0.1", targetPort: port, ownProcessOnly: false)
        defer { proxy.stop() }
        let tmux = try TmuxSession(
            command: shell("publish rtmp://127.0.0.1:\(proxy.port)/live/held --size 640x360 --bitrate 2M --send-timeout 3"),
            width: 100, height: 30, directory: directory.url)
        let live = try await tmux.waitForScreen(timeout: .seconds(30)) { $0.contains(" PUBLISHING ") }
        #expect(live.matched, "never publishing:\n\(live.screen)")
        try await Task.sleep(for: .seconds(1))
        _ = proxy.apply(.down)
        let held = ContinuousClock.now
        let stalled = try await tmux.waitForScreen(timeout: .seconds(6)) { $0.contains(" STALLED ") }
        #expect(stalled.matched, "no STALLED within 6 s of the link holding everything:\n\(stalled.screen)")
        #expect(stalled.screen.contains("reconnect in"), "STALLED without its countdown:\n\(stalled.screen)")
        let reconnecting = try await tmux.waitForScreen(timeout: .seconds(15)) { $0.contains(" RECONNECTING ") }
        #expect(reconnecting.matched, "the stalled connection was not torn down and retried:\n\(reconnecting.screen)")
        #expect(ContinuousClock.now - held >= .seconds(3), "torn down before the limit")
        _ = proxy.apply(.up)
        let back = try await tmux.waitForScreen(timeout: .seconds(45)) { $0.contains(" PUBLISHING ") }
        #expect(back.matched, "not publishing again once the link accepts bytes:\n\(back.screen)")
        try tmux.send("x")
        try tmux.send("q")
    }

    @Test("a failed publish: the whole reason, r retry in the footer, and q exits 1 with the reason on stderr")
    func failedPublish() async throws {
        let directory = try TemporaryDirectory()
        let errors = directory.url.appendingPathComponent("stderr.txt").path
        let tmux = try TmuxSession(
            command: "\(OnAirBinary.url.path) publish rtmp://127.0.0.1:1/live/x --size 320x180 2>\(errors); echo ONAIR-EXIT=$?; sleep 60",
            width: 100, height: 30, directory: directory.url)
        // The whole screen, footer included: tmux can show a frame whose top is drawn and whose footer is not yet
        // (seen once: ERROR at the top, the footer's "r retry" still blank).
        let failed = try await tmux.waitForScreen(timeout: .seconds(20)) { $0.contains(" ERROR ") && $0.contains("r retry") }
        #expect(failed.matched, "no ERROR:\n\(failed.screen)")
        #expect(failed.screen.contains("r retry"), "the footer offers no retry:\n\(failed.screen)")
        #expect(failed.screen.contains("(r retries)"), "the reason is cut:\n\(failed.screen)")
        #expect(failed.screen.contains("bitrate  0 b/s"), "a bitrate beside a failed publish:\n\(failed.screen)")
        try tmux.send("r")
        // The retry is a second start in the event log, failing the same way.
        let retried = try await tmux.waitForScreen(timeout: .seconds(10)) { $0.components(separatedBy: "control start").count >= 3 && $0.contains(" ERROR ") }
        #expect(retried.matched, "r did not retry:\n\(retried.screen)")
        try tmux.send("q")
        let exited = try await tmux.waitForScreen { $0.contains("ONAIR-EXIT=") }
        #expect(exited.screen.contains("ONAIR-EXIT=1"), "quitting after a failure did not exit 1:\n\(exited.screen)")
        let stderr = (try? String(contentsOfFile: errors, encoding: .utf8)) ?? ""
        #expect(stderr.contains("onair publish:") && stderr.contains("127.0.0.1:1"), "stderr: \(stderr)")
    }
}
