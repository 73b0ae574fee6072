import Foundation
import OnAirControl
import OnAirCore
import OnAirMedia
import OnAirNet
import Synchronization

/// `onair publish URL --check`: the relay self-test of docs/design.md §3.
///
/// A player starts on the URL's stream first; then a publisher broadcasts real encoded media (the test
/// pattern and tone at 320x240, from a ``MediaEngine``) to the same stream. Once media reaches the player,
/// the publisher sends a nonce with `send(handler:_:)` and the player's events go to
/// ``RTMPDataRelayCheck/observe(_:)``: the nonce arriving means the server relays `send()` notices; media
/// stamped well after it arriving without it means the server drops them. Both sides stop, and one plain
/// line (or, with `--headless`, one JSON Lines `check` event) says which.
///
/// The check publishes under the URL's own stream name (key query included), so it tests exactly what a
/// broadcast would use. A stream that is already live is not disturbed: the server refuses the second
/// publisher and the check exits 1 saying so.
///
/// Exit status: 0 relayed, 3 dropped, 1 the check could not run (connection refused, publish refused,
/// no verdict within ``timeout``); a malformed URL is a usage error (2).
public enum RelayCheck {
    /// The verdict comes within this, or the check gives up (exit 1).
    public static let timeout: Duration = .seconds(10)

    /// Exit status when the server drops `send()` notices.
    public static let droppedExitCode: Int32 = 3

    /// What a subscriber loses on a server that drops `send()` notices.
    public static let degraded = [
        "Publish Background toast", "Publisher Foreground toast", "Publisher Interrupt toast",
        "tap-republish flow", "reconnect-on-background flow",
    ]

    /// The engine the check publishes from: synthetic, small and cheap, whatever the machine has.
    static let engineSettings = EngineSettings(
        video: "test", audio: "test", size: "320x240", framesPerSecond: 15,
        bitrate: "300k", audioBitrate: "64k", previewFramesPerSecond: 0
    )

    /// The outcome of one run.
    enum Outcome: Sendable {
        case relayed(nonce: String, latency: Duration)
        case dropped(nonce: String)
        case failed(String)
    }

    /// Runs the check and reports it on stdout; returns the process exit status (0 or 3). A check that
    /// cannot run throws ``FrontEndExit`` with status 1 (2 for a malformed URL).
    /// `caFile` (`--ca-file`) replaces the system's roots for an `rtmps://` URL.
    public static func run(url text: String, headless: Bool, caFile: String? = nil) async throws -> Int32 {
        let url = try FrontEndSetup.streamURL(text, command: "publish --check")
        let clock = SessionClock()
        let writer = JSONLinesWriter()
        let rtmp = try FrontEndSetup.rtmpConfiguration(url: url, caFile: caFile, command: "publish --check") { _ in }
        let engine = try FrontEndSetup.engine(engineSettings, command: "publish --check") { _ in }
        let (outcome, warnings) = await checkReportingWarnings(url: url, engine: engine, rtmp: rtmp)
        if headless {
            for warning in warnings {
                writer.write(OnAirEvent(time: clock.now, side: .app, .warning(warning, dropped: nil)))
            }
            writer.write(OnAirEvent(time: clock.now, side: .app, .reported(kind: "check", details: outcome.headlessDetails(url: url))))
        } else {
            warnings.forEach { writeLine("relay check: warning: \($0)") }
        }
        switch outcome {
        case .failed(let reason):
            throw FrontEndExit(code: 1, message: "onair publish --check: \(url.redacted): \(reason)")
        case .relayed(_, let latency):
            if !headless {
                writeLine("relay check: \(url.redacted) relays send() notices (nonce seen \(latency.milliseconds) ms after sending)")
            }
            return 0
        case .dropped:
            if !headless {
                writeLine("relay check: \(url.redacted) DROPS send() notices: subscribers will not see Publish Background / "
                    + "Publisher Foreground / Publisher Interrupt toasts; the tap-republish and reconnect-on-background flows "
                    + "are degraded (stock nginx-rtmp does this; use onair serve, Red5 or Wowza)")
            }
            return droppedExitCode
        }
    }

    /// Player first, then publisher, probe, verdict; everything stopped before it returns, within ``timeout``.
    static func check(url: StreamURL, engine: MediaEngine, rtmp: RTMPClient.Configuration = .init()) async -> Outcome {
        await checkReportingWarnings(url: url, engine: engine, rtmp: rtmp).outcome
    }

    /// ``check(url:engine:rtmp:)``, and the server's breaks of the spec that the clients tolerated.
    static func checkReportingWarnings(
        url: StreamURL, engine: MediaEngine, rtmp: RTMPClient.Configuration = .init()
    ) async -> (outcome: Outcome, warnings: [String]) {
        let player = RTMPPlayer(url: url, configuration: rtmp)
        let publisher = RTMPPublisher(url: url, configuration: rtmp)
        // Raced rather than grouped: a connect or handshake stuck in the network does not see cancellation,
        // and the verdict must not wait for it. The loser is cancelled and its connections closed.
        let findings = RelayCheckFindings()
        let outcome: Outcome = await withCheckedContinuation { continuation in
            let once = FirstOutcome(continuation)
            let work = Task { once.resume(await probe(url: url, engine: engine, player: player, publisher: publisher, findings: findings)) }
            Task {
                try? await Task.sleep(for: timeout)
                once.resume(.failed("no verdict within \(timeout.milliseconds / 1000) s: \(findings.summary)"))
                work.cancel()
            }
        }
        await publisher.stop()
        await player.stop()
        engine.stop()
        return (outcome, findings.warnings)
    }

    private static func probe(
        url: StreamURL, engine: MediaEngine, player: RTMPPlayer, publisher: RTMPPublisher, findings: RelayCheckFindings
    ) async -> Outcome {
        do {
            // The player plays the bare name: a `?key=` is for publishers only.
            try await player.start(streamName: url.bareStreamName)
        } catch {
            return .failed("cannot play: \(error)")
        }
        findings.update { $0.playerConnected = true }
        do {
            try engine.start()
        } catch {
            return .failed("cannot start the test pattern and tone: \(error)")
        }
        do {
            try await publisher.start(type: .live, video: engine.videoTrack, audio: engine.audioTrack)
        } catch RTMPClient.Error.publishRejected(let status) {
            return .failed("publish refused (\(status.code.rawValue): \(status.description)); is the stream already live? Pick an unused stream name for the check")
        } catch RTMPClient.Error.connectionRefused {
            return .failed("the server accepted the player, then refused the publisher's connection: it stopped or restarted during the check")
        } catch {
            return .failed("the server accepted the player, then the publisher could not publish: \(error)")
        }
        findings.update { $0.publishStarted = true }
        let publisherEvents = Task {
            for await event in publisher.events {
                if case .warning(let text) = event { findings.update { $0.warnings.append(text) } }
            }
        }
        defer { publisherEvents.cancel() }
        let lastSent = LatestTimestamp()
        let pump = Task.detached {
            var awaitingKeyframe = true
            for await packet in engine.packets {
                if packet.kind == .video && awaitingKeyframe {
                    guard packet.isKeyframe else { continue }
                    awaitingKeyframe = false
                }
                do {
                    try await publisher.send(packet)
                } catch {
                    return
                }
                lastSent.update(packet.decodeTimestamp)
            }
        }
        defer { pump.cancel() }
        engine.requestKeyframe()

        var check: RTMPDataRelayCheck?
        var sentAt = ContinuousClock.now
        for await event in player.events {
            if var current = check {
                let verdict = current.observe(event)
                check = current
                switch verdict {
                case .relayed: return .relayed(nonce: current.nonce, latency: ContinuousClock.now - sentAt)
                case .dropped: return .dropped(nonce: current.nonce)
                case nil: break
                }
            } else if case .packet = event {
                // Media reaches the subscriber: it is playing, so a notice sent now has somewhere to go.
                let probe = RTMPDataRelayCheck.random(sentAtTimestamp: lastSent.value)
                sentAt = ContinuousClock.now
                do {
                    try await publisher.send(handler: RTMPDataRelayCheck.handler, probe.arguments)
                } catch {
                    return .failed("cannot send the probe: \(error)")
                }
                check = probe
            }
            findings.update { $0.observe(event) }
            switch event {
            case .closed(let error):
                return .failed("the server closed the player's connection before a verdict (it went away or dropped the player)"
                    + "\(error.map { ": \($0)" } ?? ""); \(findings.summary)")
            case .status(let status) where status.code == .playStreamNotFound:
                return .failed("the server does not play the stream (\(status.code.rawValue))")
            default:
                break
            }
        }
        return .failed("the player's connection ended before a verdict")
    }

    private static func writeLine(_ line: String) {
        try? FileHandle.standardOutput.write(contentsOf: Data((line + "\n").utf8))
    }
}

/// Resumes a continuation with the first outcome offered and ignores the rest.
private final class FirstOutcome: Sendable {
    private let continuation: Mutex<CheckedContinuation<RelayCheck.Outcome, Never>?>

    init(_ continuation: CheckedContinuation<RelayCheck.Outcome, Never>) {
        self.continuation = Mutex(continuation)
    }

    func resume(_ outcome: RelayCheck.Outcome) {
        continuation.withLock { current in
            defer { current = nil }
            return current
        }?.resume(returning: outcome)
    }
}

/// The latest media timestamp the check's publisher has written, shared by its pump and its probe.
private final class LatestTimestamp: Sendable {
    private let latest = Mutex<Int64>(0)

    var value: Int64 { latest.withLock { $0 } }

    func update(_ timestamp: Int64) {
        latest.withLock { $0 = max($0, timestamp) }
    }
}

extension Duration {
    /// Whole milliseconds.
    var milliseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1000 + attoseconds / 1_000_000_000_000_000
    }
}
