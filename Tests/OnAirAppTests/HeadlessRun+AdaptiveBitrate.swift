import OnAirTestSupport

/// A publisher's `abr` events, read by the lift tests (kernel link and stage).
extension HeadlessRun {
    /// The `abr` events that lower the target.
    var stepDowns: [Event] {
        events.events.filter {
            $0.kind == "abr" && ($0.details["newBitrate"] as? Int ?? 0) < ($0.details["oldBitrate"] as? Int ?? 0)
        }
    }

    /// The `number`th `abr` event that lowers the target.
    func waitForStepDown(number: Int, within timeout: Duration) async -> Event? {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline, peer.isRunning {
            let downs = stepDowns
            if downs.count >= number { return downs[number - 1] }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return nil
    }

    /// The first `abr` event after `failed` that takes the target to 90 % of `bitrate` or more, within two
    /// minutes, and the seconds since `failed`; nil when none came.
    func waitForRecovery(to bitrate: Int, after failed: Event) async -> (event: Event, seconds: Double)? {
        let back = await waitFor(.seconds(120)) {
            $0.kind == "abr" && $0.time > failed.time && ($0.details["newBitrate"] as? Int ?? 0) >= bitrate * 9 / 10
        }
        return back.map { ($0, Double($0.time - failed.time) / 1000) }
    }

    /// The target's steps since `since` (ms), one line: for a failure's message.
    func abrLog(since: Int64 = 0) -> String {
        events.events.filter { $0.kind == "abr" && $0.time >= since }
            .map { "\($0.time / 100) ds \($0.details["old"] ?? "?")→\($0.details["new"] ?? "?") \($0.details["reason"] ?? "?")" }
            .joined(separator: ", ")
    }
}
