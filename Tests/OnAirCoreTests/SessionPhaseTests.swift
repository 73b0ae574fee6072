import OnAirCore
import Testing

/// Issue 15, "core states as one enum with payloads": each session's connection life is one phase whose
/// payloads hold what belongs to it alone, and the dashboard and the timers follow the phase.
@Suite("Session phases")
struct SessionPhaseTests {
    static func at(_ ms: Int64) -> SessionTime { SessionTime(milliseconds: ms) }

    @Test("the reconnect attempt lives only in waiting and connecting, and a publish from the wait carries it on")
    func publisherAttemptOnlyWhileReconnecting() {
        var session = PublisherSession(configuration: PublisherConfiguration(streamName: stream, redactedURL: ""))
        var phases: [PublisherConnectionPhase] = [session.connection]
        var timers: [Set<PublisherTimer>] = [session.pendingTimers]
        func feed(_ event: PublisherEvent, _ ms: Int64) {
            _ = session.handle(event, at: Self.at(ms))
            phases.append(session.connection)
            timers.append(session.pendingTimers)
        }
        feed(.control(.start(nil)), 0)
        feed(publishStarted, 100)
        feed(lost(), 1000)
        feed(.timerFired(.reconnect), 3000)
        feed(publishStarted, 3100)
        #expect(phases.map(\.reconnectAttempt) == [nil, nil, nil, 1, 1, nil])
        #expect(phases.first == .idle(preview: false))
        #expect(phases[1] == .connecting(reconnectAttempt: nil))
        #expect(phases.map(\.liveSince) == [nil, nil, Self.at(100), nil, nil, Self.at(3100)])
        #expect(timers == [[], [], [.sendStall], [.reconnect], [], [.sendStall]])
        #expect(session.state.liveSince == Self.at(3100))
        #expect(session.state.onAirSince == Self.at(100), "time on air is the broadcast's, kept across the reconnect")
    }

    @Test("the preview is the idle phase's: a call under resume-append shows it, a publish takes the view")
    func previewOnlyWhileIdle() {
        var session = PublisherSession(configuration: PublisherConfiguration(streamName: stream, redactedURL: "", policy: .resumeAppend))
        _ = session.handle(.control(.start(nil)), at: .zero)
        _ = session.handle(publishStarted, at: Self.at(100))
        _ = session.handle(key(.incomingCall), at: Self.at(200))
        #expect(session.connection == .idle(preview: true))
        #expect(session.previewOn)
        _ = session.handle(key(.decline), at: Self.at(300))
        #expect(session.connection == .connecting(reconnectAttempt: nil))
        #expect(!session.previewOn, "the publish left the idle phase, and the preview with it")
    }

    @Test("tapArmed on the dashboard is the policy's flag: set by the announcement, cleared by a tap or another policy")
    func tapArmedIsThePolicys() {
        var session = PublisherSession(configuration: PublisherConfiguration(streamName: stream, redactedURL: ""))
        _ = session.handle(.control(.start(nil)), at: .zero)
        _ = session.handle(publishStarted, at: Self.at(100))
        _ = session.handle(key(.incomingCall), at: Self.at(200))
        _ = session.handle(key(.decline), at: Self.at(300))
        #expect(session.policy.isTapArmed && session.state.tapArmed && session.state.status == .awaitingTap)
        let actions = session.handle(.control(.nextPolicy), at: Self.at(400))
        let displayCalls = actions.filter { !$0.requiresOwner }
        #expect(displayCalls.isEmpty, "the disarming is the dashboard's, not the owner's")
        #expect(!session.policy.isTapArmed && !session.state.tapArmed)
        #expect(session.state.policy == .resumeAppend)
    }

    @Test("the subscriber's loop count and retry time exist only in the loop; the timer runs only while it waits")
    func subscriberLoopInPhase() {
        var session = SubscriberSession(streamName: stream, redactedURL: "")
        var phases: [SubscriberPhase] = []
        func feed(_ event: SubscriberEvent, _ ms: Int64) {
            _ = session.handle(event, at: Self.at(ms))
            phases.append(session.phase)
            #expect(session.state.connection == session.phase.connection)
            #expect(session.state.reconnectAttempts == session.phase.loopPlays ?? 0)
            #expect(session.pendingTimers == (session.phase.isWaitingToReplay ? [.reconnect] : []))
        }
        feed(.control(.play), 0)
        feed(.mediaResumed, 100)
        feed(.connectionLost(reason: "reset"), 1000)
        feed(.timerFired(.reconnect), 3000)
        feed(.playFailed(reason: "refused"), 3100)
        feed(.timerFired(.reconnect), 5100)
        feed(.mediaResumed, 5200)
        #expect(phases == [
            .connecting(loopPlays: nil), .playing, .reconnecting(plays: 0, at: Self.at(3000)), .connecting(loopPlays: 1),
            .reconnecting(plays: 1, at: Self.at(5100)), .connecting(loopPlays: 2), .playing,
        ])
        #expect(phases.map(\.inReconnectLoop) == [false, false, true, true, true, true, false])
    }
}
