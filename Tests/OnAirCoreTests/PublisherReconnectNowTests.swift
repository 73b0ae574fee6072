import OnAirCore
import Testing

/// `r` while a broadcast is under way (issue 16, "Reconnect now"): the connection is dropped and connect +
/// publish redone at once with the backoff reset; its legality is the core's one rule.
@Suite("Publisher reconnect now (r)")
struct PublisherReconnectNowTests {
    static let r = PublisherEvent.control(.start(nil))

    @Test("r while PUBLISHING publishes again at once on a new connection, keyframe first")
    func whilePublishing() {
        let session = PublisherScenario("r while publishing", policy: .tapRepublish, steps: startedBroadcast(.live) + [
            PublisherStep(2000, Self.r, [.requestKeyframe, publish(.live)], .reconnecting(attempt: 1, maxAttempts: 20)),
            PublisherStep(2300, publishStarted, [], .publishing),
        ]).run()
        #expect(session.state.connectionsOpened == 2)
        #expect(session.state.onAirSince == SessionTime(milliseconds: 100), "time on air survives the reconnect")
    }

    @Test("r while RECONNECTING cancels the wait and tries now; the backoff starts again from the first delay")
    func whileReconnecting() {
        PublisherScenario("r while reconnecting", policy: .tapRepublish, steps: startedBroadcast(.live) + [
            PublisherStep(1000, lost(), [.scheduleTimer(.reconnect, after: .seconds(2))], .reconnecting(attempt: 1, maxAttempts: 20)),
            PublisherStep(3000, .timerFired(.reconnect), [.requestKeyframe, publish(.live)], .reconnecting(attempt: 1, maxAttempts: 20)),
            PublisherStep(3100, .network(.publishFailed(reason: "down")), [.scheduleTimer(.reconnect, after: .seconds(3))], .reconnecting(attempt: 2, maxAttempts: 20)),
            PublisherStep(3500, Self.r, [.cancelTimer(.reconnect), .requestKeyframe, publish(.live)], .reconnecting(attempt: 1, maxAttempts: 20)),
            // A refusal (the server may still hold the old publisher) is retried by the policy, from 2 s again.
            PublisherStep(3600, .network(.publishFailed(reason: "NetStream.Publish.BadName")), [.scheduleTimer(.reconnect, after: .seconds(3))],
                          .reconnecting(attempt: 2, maxAttempts: 20)),
        ]).run()
    }

    @Test("r while STALLED drops the stalled connection and publishes again")
    func whileStalled() {
        var session = PublisherSession(configuration: PublisherConfiguration(streamName: stream, redactedURL: "rtmp://h/live/cam", sendTimeout: .seconds(1)))
        _ = session.handle(Self.r, at: SessionTime(milliseconds: 0))
        _ = session.handle(publishStarted, at: SessionTime(milliseconds: 100))
        for time in stride(from: Int64(200), through: 1600, by: 200) {
            _ = session.handle(.wire(WireProgress(bytesWritten: 10, writePending: true)), at: SessionTime(milliseconds: time))
        }
        _ = session.handle(.timerFired(.sendStall), at: SessionTime(milliseconds: 1200))
        #expect(session.state.status == .stalled)
        #expect(session.refusal(of: .control(.start(nil))) == nil)
        let actions = session.handle(Self.r, at: SessionTime(milliseconds: 1700))
        #expect(actions == [.cancelTimer(.sendStall), .requestKeyframe, publish(.live)])
        #expect(session.state.sendStall == nil)
        #expect(session.state.status == .reconnecting(attempt: 1, maxAttempts: 20))
    }

    @Test("a recording continues as append after r")
    func recordingAppends() {
        PublisherScenario("r while recording", policy: .resumeAppend, steps: startedBroadcast(.record) + [
            PublisherStep(2000, Self.r, [.requestKeyframe, publish(.append)], .reconnecting(attempt: 1, maxAttempts: 20)),
        ]).run()
    }

    @Test("r is refused with a reason while the phone or the policy holds the broadcast", arguments: [
        (OperatorAction.incomingCall, "the app is inactive: r reconnects once the app is active"),
        (.siri, "the app is inactive: r reconnects once the app is active"),
    ])
    func refusedDuringInterruption(action: OperatorAction, reason: String) {
        var session = PublisherSession(configuration: PublisherConfiguration(streamName: stream, redactedURL: "rtmp://h/live/cam", policy: .tapRepublish))
        _ = session.handle(Self.r, at: SessionTime(milliseconds: 0))
        _ = session.handle(publishStarted, at: SessionTime(milliseconds: 100))
        _ = session.handle(.operator(action), at: SessionTime(milliseconds: 200))
        #expect(session.refusal(of: .control(.start(nil))) == reason)
        let before = session.state.connectionsOpened
        #expect(session.handle(Self.r, at: SessionTime(milliseconds: 300)).isEmpty)
        #expect(session.state.connectionsOpened == before)
        #expect(session.state.refusals[.control(.start(nil))] == reason, "the footer reads the same rule")
    }

    @Test("r is accepted in every broadcasting phase and when stopped; the footer's refusals agree")
    func acceptedPhases() {
        var session = PublisherSession(configuration: PublisherConfiguration(streamName: stream, redactedURL: "rtmp://h/live/cam"))
        #expect(session.refusal(of: .control(.start(nil))) == nil, "idle: r starts")
        _ = session.handle(Self.r, at: SessionTime(milliseconds: 0))
        #expect(session.connection == .connecting(reconnectAttempt: nil))
        #expect(session.refusal(of: .control(.start(nil))) == nil, "connecting: r connects again now")
        _ = session.handle(publishStarted, at: SessionTime(milliseconds: 100))
        #expect(session.refusal(of: .control(.start(nil))) == nil, "live: r reconnects now")
        #expect(session.state.refusals[.control(.start(nil))] == nil)
    }

    @Test("with reconnects off, r still reconnects now; a refusal then ends in ERROR")
    func reconnectsOff() {
        let policy = ReconnectPolicy(configuration: .init(maxAttempts: 0), jitterUnit: 0)
        PublisherScenario("r without reconnects", policy: .tapRepublish, reconnect: policy, steps: startedBroadcast(.live) + [
            PublisherStep(2000, Self.r, [.requestKeyframe, publish(.live)], .connecting),
            PublisherStep(2100, .network(.publishFailed(reason: "BadName")), [], .error("publish refused: BadName")),
        ]).run()
    }
}
