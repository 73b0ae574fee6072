import OnAirCore
import Testing

/// Seeded random sequences through the pure subscriber session: PLAYING is only ever what media of the
/// current play says, and a phone key the rule refuses changes nothing.
@Suite("Subscriber model")
struct SubscriberModelTests {
    @Test("10 000 random sequences: PLAYING only while media of the current play arrives")
    func randomSequences() {
        let events: [SubscriberEvent] =
            OperatorAction.allCases.map { .operator($0) } + [
                .control(.play), .control(.stop), .status(.start), .status(.publishNotify), .status(.unpublishNotify),
                .status(.streamNotFound), .mediaResumed, .mediaStalled, .playFailed(reason: "refused"),
                .connectionLost(reason: "reset"), .timerFired(.reconnect),
                .message(handler: "publisherBackground", parameter: "streamName=s"),
                .message(handler: "publisherForeground", parameter: "streamName=s"),
            ]
        var failures: [String] = []
        for seed in 0..<UInt64(10_000) where failures.isEmpty {
            var random = SplitMix64(state: seed)
            var session = SubscriberSession(streamName: "s", redactedURL: "")
            /// Media has arrived since the last play was started (and has not stalled or gone since).
            var mediaOfThisPlay = false
            var history: [String] = []
            /// The timers as the owner runs them: started and cancelled by the actions, gone once fired.
            var ownerTimers: Set<SubscriberTimer> = []
            for step in 0..<30 {
                let event = events[Int(random.next() % UInt64(events.count))]
                let before = session
                if case .timerFired(let timer) = event { ownerTimers.remove(timer) }
                let actions = session.handle(event, at: SessionTime(milliseconds: Int64(step * 900)))
                history.append("\(event) → \(session.state.connection.label)")
                for action in actions {
                    switch action {
                    case .scheduleTimer(let timer, _): ownerTimers.insert(timer)
                    case .cancelTimer(let timer): ownerTimers.remove(timer)
                    default: break
                    }
                }
                if let broken = Self.phaseInvariant(session, ownerTimers: ownerTimers) {
                    failures.append("seed \(seed) step \(step): \(broken)\n  " + history.joined(separator: "\n  "))
                    break
                }
                if actions.contains(where: { if case .play = $0 { true } else { false } }) { mediaOfThisPlay = false }
                switch event {
                case .mediaResumed: if session.state.connection == .playing { mediaOfThisPlay = true }
                case .mediaStalled, .status(.unpublishNotify), .connectionLost, .control(.stop): mediaOfThisPlay = false
                default: break
                }
                if session.state.connection == .playing && !mediaOfThisPlay {
                    failures.append("seed \(seed) step \(step): PLAYING without media of the current play\n  " + history.joined(separator: "\n  "))
                    break
                }
                if case .operator(let action) = event, let reason = before.refusal(of: action) {
                    if !actions.isEmpty || before.state.connection != session.state.connection || before.simulator != session.simulator {
                        failures.append("seed \(seed) step \(step): \(action) refused (\(reason)) but acted on")
                        break
                    }
                }
            }
        }
        #expect(failures.isEmpty, "\(failures.joined(separator: "\n"))")
    }

    /// Each fact in one place: the dashboard reads the phase, the loop's count exists only in the loop,
    /// and the owner runs exactly the timers the session counts on (none left over, none missing).
    static func phaseInvariant(_ session: SubscriberSession, ownerTimers: Set<SubscriberTimer>) -> String? {
        let phase = session.phase
        if session.state.connection != phase.connection { return "the dashboard shows \(session.state.connection.label) in \(phase)" }
        if session.state.reconnectAttempts != (phase.loopPlays ?? 0) { return "\(session.state.reconnectAttempts) attempts in \(phase)" }
        if ownerTimers != session.pendingTimers { return "the owner runs \(ownerTimers), the session counts on \(session.pendingTimers)" }
        if ownerTimers.contains(.reconnect) != phase.isWaitingToReplay { return "reconnect timer \(ownerTimers) in \(phase)" }
        if case .reconnecting(let plays, _) = phase, plays < 0 { return "negative count" }
        if case .connecting(let plays?) = phase, plays < 1 { return "a loop play numbered \(plays)" }
        return nil
    }
}
