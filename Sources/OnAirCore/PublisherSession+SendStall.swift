/// The send-stall watchdog's place in the session: STALLED while live and the socket takes nothing, then
/// the connection is abandoned and lost like any other (`SendStallWatchdog` holds the timing rule).
extension PublisherSession {
    /// Feeds the watchdog while live: STALLED past `--send-timeout`, then the connection is abandoned and
    /// lost like any other, so the reconnect policy takes over.
    mutating func observeWire(_ progress: WireProgress, at now: SessionTime) -> [PublisherAction] {
        guard connection == .live else {
            state.sendStall = nil
            return []
        }
        switch watchdog.observe(bytesWritten: progress.bytesWritten, writePending: progress.writePending, at: now) {
        case .flowing:
            if state.sendStall != nil {
                state.sendStall = nil
                log(now, .engine, "the socket accepts bytes again")
            }
            return []
        case .stalled(let since, let tearDownAt):
            if state.sendStall == nil {
                log(now, .error, "send stalled: the socket accepted nothing for \(now.since(since).wholeMilliseconds) ms")
            }
            state.sendStall = SendStall(since: since, tearDownAt: tearDownAt)
            return []
        case .tearDown(let quiet):
            let reason = "send stalled: the socket accepted nothing for \(quiet.wholeMilliseconds / 1000) s"
            return apply(.abandonConnection, at: now) + handleNetwork(.connectionLost(reason: reason), at: now)
        }
    }
}
