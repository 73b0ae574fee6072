import Foundation
import NIOCore
@testable import OnAirRelay
@testable import OnAirRelay
@testable import OnAirNet
import OnAirCore
import OnAirRTMP
import OnAirTestSupport
import Synchronization

/// OnAirTestSupport's managed peer process. The test target also has an RTMP-client `PeerProcess` of its
/// own, which shadows the shared one, so relay tests name this one explicitly.

/// A relay on a free loopback port (port 0, read back) with its own record directory, whose events are
/// collected so that tests can wait for them. Stopped by ``stop()``; `deinit` of the directory cleans up.
final class RelayTestHarness: Sendable {
    let relay: RelayServer
    let directory: TemporaryDirectory
    let recordDirectory: URL
    let events = RelayTestLog<RelayEvent>()
    private let collector: Task<Void, Never>

    init(configure: (inout RelayConfiguration) -> Void = { _ in }) async throws {
        directory = try TemporaryDirectory(prefix: "onair-relay")
        recordDirectory = directory.file("recordings")
        var configuration = RelayConfiguration()
        configuration.port = 0
        configuration.recordDirectory = recordDirectory
        // The product's timeouts (handshake 5 s, idle publisher 5 s, connected-but-idle 15 s, unfinished message
        // 10 s) are short next to a test task starved on a loaded machine: beside two busy loops a test publisher
        // was dropped as idle between its publish and its first frame (issue 24). Tests that are not about them
        // must not race them; those that are (RelayLimitTests, RelayNoticeTests) set their own.
        configuration.handshakeTimeout = .seconds(60)
        configuration.idleTimeout = .seconds(60)
        configuration.connectIdleTimeout = .seconds(60)
        configuration.incompleteMessageTimeout = .seconds(60)
        configure(&configuration)
        relay = try await RelayServer.start(configuration)
        let relay = self.relay
        let events = self.events
        collector = Task { for await event in relay.events { events.append(event) } }
    }

    var port: Int { relay.port }

    func url(_ stream: String) -> String { "rtmp://127.0.0.1:\(relay.port)/live/\(stream)" }

    func streamURL(_ stream: String) throws -> StreamURL { try StreamURL(url(stream)) }

    func stop() async {
        await relay.stop()
        await collector.value
    }


    /// ffmpeg publishing the test source (`testsrc` 640×360 30 fps + `sine`, x264 ultrafast/zerolatency
    /// -g 30, AAC) in real time for `seconds`.
    /// Runs `body`, then `cleanup` whether it threw or not (a test's async `defer`), and rethrows.
    func run(_ body: () async throws -> Void, finally cleanup: () async -> Void) async throws {
        do {
            try await body()
        } catch {
            await cleanup()
            throw error
        }
        await cleanup()
    }

    func ffmpegPublisher(stream: String, seconds: Int, size: String = "640x360") throws -> PeerProcess {
        try PeerProcess("ffmpeg", [
            "-nostdin", "-loglevel", "error", "-re",
            "-f", "lavfi", "-i", "testsrc=size=\(size):rate=30", "-f", "lavfi", "-i", "sine",
            "-c:v", "libx264", "-preset", "ultrafast", "-tune", "zerolatency", "-g", "30", "-c:a", "aac",
            "-t", "\(seconds)", "-f", "flv", url(stream),
        ], in: directory.url)
    }
}

/// Items appended from a collecting task and awaited by a test, with a generous safety timeout.
final class RelayTestLog<Element: Sendable>: Sendable {
    private let items = Mutex<[Element]>([])

    func append(_ item: Element) { items.withLock { $0.append(item) } }

    var all: [Element] { items.withLock { $0 } }

    /// The first item matching `predicate`, waiting up to `timeout` (a safety net, not a measurement).
    func first(timeout: Duration = .seconds(60), where predicate: (Element) -> Bool) async throws -> Element {
        let deadline = ContinuousClock.now + timeout
        while true {
            if let found = all.first(where: predicate) { return found }
            guard ContinuousClock.now < deadline else {
                throw PeerError.timedOut("nothing matching arrived within \(timeout); got \(all.count) items: \(all.suffix(12))")
            }
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    /// Waits until `predicate` holds for the whole log.
    func wait(timeout: Duration = .seconds(60), until predicate: ([Element]) -> Bool) async throws {
        let deadline = ContinuousClock.now + timeout
        while !predicate(all) {
            guard ContinuousClock.now < deadline else {
                throw PeerError.timedOut("condition not met within \(timeout); got \(all.count) items: \(all.suffix(12))")
            }
            try await Task.sleep(for: .milliseconds(20))
        }
    }
}

/// An ``RTMPPlayer`` whose events are collected.
final class RelayTestPlayer: Sendable {
    let player: RTMPPlayer
    let events = RelayTestLog<RTMPPlayer.Event>()
    private let collector: Task<Void, Never>

    init(url: StreamURL) async throws {
        player = RTMPPlayer(url: url)
        let player = self.player
        let events = self.events
        collector = Task { for await event in player.events { events.append(event) } }
        try await player.start()
    }

    func statusCodes() -> [RTMPStatus.Code] {
        events.all.compactMap { if case .status(let status) = $0 { status.code } else { nil } }
    }

    func stop() async {
        await player.stop()
        await collector.value
    }
}
