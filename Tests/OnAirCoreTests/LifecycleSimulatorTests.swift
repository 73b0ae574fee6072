import OnAirCore
import Testing

@Suite("Lifecycle simulator")
struct LifecycleSimulatorTests {
    /// Where the simulated phone is before a key: the lifecycle state and what holds it there.
    enum Situation: String, CaseIterable, Sendable {
        case active, callRinging, siriUp, home, callAccepted

        var simulator: LifecycleSimulator {
            switch self {
            case .active: LifecycleSimulator()
            case .callRinging: LifecycleSimulator(state: .inactive, interruption: .ringingCall)
            case .siriUp: LifecycleSimulator(state: .inactive, interruption: .siri)
            case .home: LifecycleSimulator(state: .background)
            case .callAccepted: LifecycleSimulator(state: .background, interruption: .acceptedCall)
            }
        }
    }

    struct Row: Sendable, CustomTestStringConvertible {
        let situation: Situation
        let key: OperatorAction
        /// nil: refused.
        let notifications: [AppNotification]?
        let after: LifecycleState

        var testDescription: String { "\(key.rawValue) while \(situation.rawValue)" }
    }

    /// Every key in every situation: refused (state unchanged), or the notifications iOS posts, in order.
    static let table: [Row] = [
        // Active: a call, Siri or Home may happen; nothing to decline, accept or return from.
        Row(situation: .active, key: .incomingCall, notifications: [.willResignActive, .audioInterruptionBegan], after: .inactive),
        Row(situation: .active, key: .siri, notifications: [.willResignActive], after: .inactive),
        Row(situation: .active, key: .decline, notifications: nil, after: .active),
        Row(situation: .active, key: .accept, notifications: nil, after: .active),
        Row(situation: .active, key: .home, notifications: [.willResignActive, .didEnterBackground], after: .background),
        Row(situation: .active, key: .returnToApp, notifications: nil, after: .active),
        Row(situation: .active, key: .tap, notifications: [.tap], after: .active),
        // A call rings: decline (the call ends first, then the app is active) or accept.
        Row(situation: .callRinging, key: .incomingCall, notifications: nil, after: .inactive),
        Row(situation: .callRinging, key: .siri, notifications: nil, after: .inactive),
        Row(situation: .callRinging, key: .decline, notifications: [.audioInterruptionEnded, .didBecomeActive], after: .active),
        Row(situation: .callRinging, key: .accept, notifications: [.didEnterBackground], after: .background),
        Row(situation: .callRinging, key: .home, notifications: nil, after: .inactive),
        Row(situation: .callRinging, key: .returnToApp, notifications: nil, after: .inactive),
        Row(situation: .callRinging, key: .tap, notifications: [.tap], after: .inactive),
        // Siri is up: dismissing it posts no audio notification; there is no call to accept.
        Row(situation: .siriUp, key: .incomingCall, notifications: nil, after: .inactive),
        Row(situation: .siriUp, key: .siri, notifications: nil, after: .inactive),
        Row(situation: .siriUp, key: .decline, notifications: [.didBecomeActive], after: .active),
        Row(situation: .siriUp, key: .accept, notifications: nil, after: .inactive),
        Row(situation: .siriUp, key: .home, notifications: nil, after: .inactive),
        Row(situation: .siriUp, key: .returnToApp, notifications: nil, after: .inactive),
        Row(situation: .siriUp, key: .tap, notifications: [.tap], after: .inactive),
        // In the background after Home: only a return.
        Row(situation: .home, key: .incomingCall, notifications: nil, after: .background),
        Row(situation: .home, key: .siri, notifications: nil, after: .background),
        Row(situation: .home, key: .decline, notifications: nil, after: .background),
        Row(situation: .home, key: .accept, notifications: nil, after: .background),
        Row(situation: .home, key: .home, notifications: nil, after: .background),
        Row(situation: .home, key: .returnToApp, notifications: [.willEnterForeground, .didBecomeActive], after: .active),
        Row(situation: .home, key: .tap, notifications: [.tap], after: .background),
        // In the background on a call: the return hands the audio device back first.
        Row(situation: .callAccepted, key: .incomingCall, notifications: nil, after: .background),
        Row(situation: .callAccepted, key: .siri, notifications: nil, after: .background),
        Row(situation: .callAccepted, key: .decline, notifications: nil, after: .background),
        Row(situation: .callAccepted, key: .accept, notifications: nil, after: .background),
        Row(situation: .callAccepted, key: .home, notifications: nil, after: .background),
        Row(
            situation: .callAccepted, key: .returnToApp,
            notifications: [.audioInterruptionEnded, .willEnterForeground, .didBecomeActive], after: .active
        ),
        Row(situation: .callAccepted, key: .tap, notifications: [.tap], after: .background),
    ]

    @Test("the table covers every key in every situation")
    func tableIsComplete() {
        for situation in Situation.allCases {
            for action in OperatorAction.allCases {
                let rows = Self.table.filter { $0.situation == situation && $0.key == action }
                #expect(rows.count == 1, "\(action.rawValue) while \(situation.rawValue)")
            }
        }
    }

    @Test("a key posts the iOS notifications in iOS order, or is refused with a reason", arguments: table)
    func keyInState(_ row: Row) {
        var simulator = row.situation.simulator
        let outcome = simulator.handle(row.key)
        switch (outcome, row.notifications) {
        case (.delivered(let notifications), let expected?):
            #expect(notifications == expected)
        case (.refused(let reason), nil):
            #expect(!reason.isEmpty)
        default:
            Issue.record("expected \(String(describing: row.notifications)), got \(outcome)")
        }
        #expect(simulator.state == row.after)
    }

    @Test(
        "a refusal says why, with the contract's wording where OperatorAction refuses",
        arguments: table.filter { $0.notifications == nil }
    )
    func refusalReason(_ row: Row) {
        var simulator = row.situation.simulator
        guard case .refused(let reason) = simulator.handle(row.key) else {
            Issue.record("not refused")
            return
        }
        let expected = row.key.refusal(in: row.situation.simulator.state)
            ?? "Siri is up, there is no call to accept (d dismisses Siri)"
        #expect(reason == expected)
    }

    @Test("refusal(of:) predicts the outcome without changing the state", arguments: table)
    func refusalPredicts(_ row: Row) {
        let simulator = row.situation.simulator
        #expect((simulator.refusal(of: row.key) == nil) == (row.notifications != nil))
        #expect(simulator == row.situation.simulator)
    }

    @Test("the audio device is held from the ring to the end of the call, never by Siri or Home")
    func audioDeviceHolder() {
        let walks: [([OperatorAction], [Bool])] = [
            ([.incomingCall, .decline], [true, false]),
            ([.incomingCall, .accept, .returnToApp], [true, true, false]),
            ([.siri, .decline], [false, false]),
            ([.home, .returnToApp], [false, false]),
        ]
        for (keys, held) in walks {
            var simulator = LifecycleSimulator()
            let observed = keys.map { key -> Bool in
                _ = simulator.handle(key)
                return simulator.callHoldsAudio
            }
            #expect(observed == held, "\(keys)")
        }
    }
}
