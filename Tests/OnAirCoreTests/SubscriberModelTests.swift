import OnAirCore
import OnAirTestSupport
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
            for step in 0..<30 {
                let event = events[Int(random.next() % UInt64(events.count))]
                let before = session
                let actions = session.handle(event, at: SessionTime(milliseconds: Int64(step * 900)))
                history.append("\(event) → \(session.state.connection.label)")
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
}
