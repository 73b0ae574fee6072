/// The send-stall watchdog's place in the session: the owner only reports what the socket took
/// (`PublisherEvent.wire`); the session's `sendStall` timer decides when STALLED starts and when the
/// connection is torn down (`SendStallWatchdog` holds the timing rule), so the figures do not depend on
/// how often the front end ticks.
extension PublisherSession {
    /// A report of the socket's counters. Only a live connection has a watchdog. A report that ends a
    /// STALLED spell is acted on at once (the countdown stops); one that comes while no check is
    /// scheduled (the last check waited for a report) is checked at once; any other only updates the
    /// watchdog, which the next check reads.
    mutating func observeWire(_ progress: WireProgress, at now: SessionTime) -> [PublisherAction] {
        guard case .live(let since, var watchdog) = connection else { return [] }
        let wasStalled = watchdog.stall != nil
        let progressed = watchdog.record(progress, at: now)
        var actions = enter(.live(since: since, watchdog: watchdog), at: now)
        if wasStalled && progressed { log(now, .engine, "the socket accepts bytes again") }
        if (wasStalled && progressed) || !pendingTimers.contains(.sendStall) {
            actions += checkSendStall(at: now)
        }
        return actions
    }

    /// The watchdog's verdict now, acted on: the timer set for the next look (the end of the quiet
    /// allowance, or the teardown), STALLED with its countdown, or the connection abandoned and lost like
    /// any other so the reconnect policy takes over.
    mutating func checkSendStall(at now: SessionTime) -> [PublisherAction] {
        guard case .live(let since, var watchdog) = connection else { return [] }
        let wasStalled = watchdog.stall != nil
        let verdict = watchdog.check(at: now)
        var actions = enter(.live(since: since, watchdog: watchdog), at: now)
        switch verdict {
        case .flowing(let recheckAt):
            actions += apply(.scheduleTimer(.sendStall, after: recheckAt.since(now)), at: now)
        case .stalled(let stall):
            if !wasStalled {
                log(now, .error, "send stalled: the socket accepted nothing for \(now.since(stall.since).wholeMilliseconds) ms")
            }
            actions += apply(.scheduleTimer(.sendStall, after: stall.tearDownAt.since(now)), at: now)
        case .awaitingReport:
            break
        case .tearDown(let quiet):
            let reason = "send stalled: the socket accepted nothing for \(quiet.wholeMilliseconds / 1000) s"
            actions += apply(.abandonConnection, at: now) + handleNetwork(.connectionLost(reason: reason), at: now)
        }
        return actions
    }
}
