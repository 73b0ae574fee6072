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

    /// The target's steps since `since` (ms), one line: for a failure's message.
    func abrLog(since: Int64 = 0) -> String {
        events.events.filter { $0.kind == "abr" && $0.time >= since }
            .map { "\($0.time / 100) ds \($0.details["old"] ?? "?")→\($0.details["new"] ?? "?") \($0.details["reason"] ?? "?")" }
            .joined(separator: ", ")
    }
}
