import Foundation
import OnAirControl
import OnAirCore
import OnAirNet

extension RelayCheck {
    /// The self-test at the start of a scenario run: the same check as `publish --check`, on a stream
    /// of its own next to the demo's (`NAME-check`) so it never meets the demo's publisher. With a
    /// `writer`, the verdict is printed as the `check` event.
    static func selfTest(
        url: StreamURL, rtmp: RTMPClient.Configuration = .init(), clock: SessionClock, writer: JSONLinesWriter?
    ) async -> Outcome {
        var target = url
        target.streamName = "\(url.bareStreamName)-check"
        let outcome: Outcome
        do {
            let engine = try FrontEndSetup.engine(engineSettings, command: "demo --script") { _ in }
            outcome = await check(url: target, engine: engine, rtmp: rtmp)
        } catch {
            outcome = .failed("\(error)")
        }
        writer?.write(OnAirEvent(time: clock.now, side: .app, .reported(kind: "check", details: outcome.headlessDetails(url: target))))
        return outcome
    }
}

extension RelayCheck.Outcome {
    /// The `check` event's details (README, "Headless output").
    func headlessDetails(url: StreamURL) -> [String: JSONValue] {
        switch self {
        case .relayed(let nonce, let latency):
            ["url": .string(url.redacted), "verdict": "relayed", "nonce": .string(nonce), "latencyMs": .integer(latency.milliseconds), "degraded": .array([])]
        case .dropped(let nonce):
            ["url": .string(url.redacted), "verdict": "dropped", "nonce": .string(nonce), "degraded": .array(RelayCheck.degraded.map { .string($0) })]
        case .failed(let reason):
            ["url": .string(url.redacted), "verdict": "failed", "reason": .string(reason), "degraded": .array([])]
        }
    }

    /// One line for the console's notice.
    func summary(url: StreamURL) -> String {
        switch self {
        case .relayed(_, let latency): "relay self-test: \(url.host) relays send() notices (\(latency.milliseconds) ms)"
        case .dropped: "relay self-test: \(url.host) DROPS send() notices; the subscriber's background/foreground toasts will not appear"
        case .failed(let reason): "relay self-test could not run: \(reason)"
        }
    }
}
