import OnAirCore
import Testing

@Suite("Publisher session")
struct PublisherSessionTests {
    static let twoAttempts = ReconnectPolicy(configuration: .init(maxAttempts: 2), jitterUnit: 0)
    static func wait(_ seconds: Int) -> PublisherAction { .scheduleTimer(.reconnect, after: .seconds(seconds)) }
    static func waitMs(_ ms: Int64) -> PublisherAction { .scheduleTimer(.reconnect, after: .milliseconds(ms)) }
    static let badName = PublisherEvent.network(.publishFailed(reason: "NetStream.Publish.BadName"))

    static let reconnects: [PublisherScenario] = [
        PublisherScenario(
            "a lost live connection reconnects with a keyframe first and type live, growing the delay",
            policy: .tapRepublish,
            steps: startedBroadcast(.live) + [
                PublisherStep(1000, lost(), [wait(2)], .reconnecting(attempt: 1, maxAttempts: 20)),
                PublisherStep(3000, .timerFired(.reconnect), [.requestKeyframe, publish(.live)], .reconnecting(attempt: 1, maxAttempts: 20)),
                PublisherStep(3100, lost("refused"), [wait(3)], .reconnecting(attempt: 2, maxAttempts: 20)),
                PublisherStep(6100, .timerFired(.reconnect), [.requestKeyframe, publish(.live)], .reconnecting(attempt: 2, maxAttempts: 20)),
                PublisherStep(6200, badName, [waitMs(4500)], .reconnecting(attempt: 3, maxAttempts: 20)),
                PublisherStep(10700, .timerFired(.reconnect), [.requestKeyframe, publish(.live)], .reconnecting(attempt: 3, maxAttempts: 20)),
                PublisherStep(10800, publishStarted, [], .publishing),
                // A later loss starts again from the first delay.
                PublisherStep(20000, lost(), [wait(2)], .reconnecting(attempt: 1, maxAttempts: 20)),
            ]
        ),
        PublisherScenario(
            "a lost recording reconnects with append so the file continues",
            policy: .resumeAppend,
            steps: startedBroadcast(.record) + [
                PublisherStep(1000, lost(), [wait(2)], .reconnecting(attempt: 1, maxAttempts: 20)),
                PublisherStep(3000, .timerFired(.reconnect), [.requestKeyframe, publish(.append)], .reconnecting(attempt: 1, maxAttempts: 20)),
                PublisherStep(3100, publishStarted, [], .publishing),
            ]
        ),
        PublisherScenario(
            "after the last attempt the session stops in a clear error",
            policy: .tapRepublish,
            reconnect: twoAttempts,
            steps: startedBroadcast(.live) + [
                PublisherStep(1000, lost(), [wait(2)], .reconnecting(attempt: 1, maxAttempts: 2)),
                PublisherStep(3000, .timerFired(.reconnect), [.requestKeyframe, publish(.live)], .reconnecting(attempt: 1, maxAttempts: 2)),
                PublisherStep(3100, badName, [wait(3)], .reconnecting(attempt: 2, maxAttempts: 2)),
                PublisherStep(6100, .timerFired(.reconnect), [.requestKeyframe, publish(.live)], .reconnecting(attempt: 2, maxAttempts: 2)),
                PublisherStep(6200, lost("connection refused"), [], .error("connection lost (connection refused); gave up after 2 reconnect attempts")),
                PublisherStep(9000, .timerFired(.reconnect), [], .error("connection lost (connection refused); gave up after 2 reconnect attempts")),
                // Stop acknowledges the error.
                PublisherStep(10000, .control(.stop), [], .idle),
            ]
        ),
        PublisherScenario(
            "the operator's stop cancels a pending reconnect, and a late timer is ignored",
            policy: .tapRepublish,
            steps: startedBroadcast(.live) + [
                PublisherStep(1000, lost(), [wait(2)], .reconnecting(attempt: 1, maxAttempts: 20)),
                PublisherStep(1500, .control(.stop), [.cancelTimer(.reconnect), .stop], .idle),
                PublisherStep(3000, .timerFired(.reconnect), [], .idle),
            ]
        ),
        PublisherScenario(
            "a policy's stop during a reconnect cancels it too; notices with no live stream are not sent",
            policy: .tapRepublish,
            steps: startedBroadcast(.live) + [
                PublisherStep(1000, lost(), [wait(2)], .reconnecting(attempt: 1, maxAttempts: 20)),
                PublisherStep(1500, key(.incomingCall), [.pauseVideo(true)], .reconnecting(attempt: 1, maxAttempts: 20)),
                PublisherStep(1800, key(.decline), [.cancelTimer(.reconnect), .stop, .toast("Tap to Re-Publish!"), .armTap], .awaitingTap),
            ]
        ),
        PublisherScenario(
            "a refused first publish is an error, and a tap tries again",
            policy: .tapRepublish,
            steps: [
                PublisherStep(0, .control(.start(nil)), [publish(.live)], .connecting),
                PublisherStep(50, badName, [], .error("publish refused: NetStream.Publish.BadName")),
                PublisherStep(1000, key(.tap), [publish(.live)], .connecting),
            ]
        ),
        PublisherScenario(
            "network events that do not fit the connection are ignored",
            policy: .tapRepublish,
            steps: [
                PublisherStep(0, publishStarted, [], .idle),
                PublisherStep(10, lost(), [], .idle),
                PublisherStep(20, badName, [], .idle),
            ]
        ),
    ]

    static let controls: [PublisherScenario] = [
        PublisherScenario(
            "the pause toggles flip the flags and the badge",
            policy: .tapRepublish,
            steps: startedBroadcast(.live) + [
                PublisherStep(1000, .control(.togglePauseVideo), [.pauseVideo(true)], .pausedVideo),
                PublisherStep(2000, .control(.togglePauseAudio), [.pauseAudio(true)], .pausedVideo),
                PublisherStep(3000, .control(.togglePauseVideo), [.pauseVideo(false)], .publishing),
            ]
        ),
        PublisherScenario(
            "stop while idle does nothing; start while broadcasting reconnects now with the type given",
            policy: .tapRepublish,
            steps: [
                PublisherStep(0, .control(.stop), [], .idle),
            ] + startedBroadcast(.live) + [
                PublisherStep(1000, .control(.start(.record)), [.requestKeyframe, publish(.record)], .reconnecting(attempt: 1, maxAttempts: 20)),
            ]
        ),
        PublisherScenario(
            "next policy keeps the live stream and the new policy handles the next call",
            policy: .tapRepublish,
            steps: startedBroadcast(.live) + [
                PublisherStep(1000, .control(.nextPolicy), [], .publishing),
                PublisherStep(2000, key(.incomingCall), [.stop, .preview(true)], .interrupted),
                PublisherStep(3000, key(.decline), [.preview(false), publish(.append)], .connecting),
            ]
        ),
        PublisherScenario(
            "next policy during a call waits for the tap that answers it: the toast, AWAITING TAP and the armed tap agree",
            policy: .tapRepublish,
            steps: startedBroadcast(.live) + [
                PublisherStep(1000, key(.incomingCall), [.pauseVideo(true), send("publisherBackground")], .pausedVideo),
                PublisherStep(1500, .control(.nextPolicy), [.toast("policy resume-append takes effect when the interruption ends")], .pausedVideo),
                PublisherStep(3000, key(.decline), [send("publisherInterrupt"), .stop, .toast("Tap to Re-Publish!"), .armTap], .awaitingTap),
                PublisherStep(4000, key(.tap), [.disarmTap, .pauseVideo(false), publish(.live), .toast("policy resume-append now in force")], .connecting),
                PublisherStep(4500, .network(.publishStarted), [], .publishing),
                PublisherStep(5000, key(.incomingCall), [.stop, .preview(true)], .interrupted),
            ]
        ),
        PublisherScenario(
            "p again while the switch waits for the tap moves the pending policy on and keeps the tap armed",
            policy: .tapRepublish,
            steps: startedBroadcast(.live) + [
                PublisherStep(1000, key(.incomingCall), [.pauseVideo(true), send("publisherBackground")], .pausedVideo),
                PublisherStep(1500, .control(.nextPolicy), [.toast("policy resume-append takes effect when the interruption ends")], .pausedVideo),
                PublisherStep(3000, key(.decline), [send("publisherInterrupt"), .stop, .toast("Tap to Re-Publish!"), .armTap], .awaitingTap),
                PublisherStep(3500, .control(.nextPolicy), [.toast("policy background-audio takes effect when the interruption ends")], .awaitingTap),
                PublisherStep(4000, .control(.stop), [.disarmTap, .toast("policy background-audio now in force"), .pauseVideo(false)], .idle),
            ]
        ),
        PublisherScenario(
            "next policy while AWAITING TAP disarms the tap at once and gives the camera back",
            policy: .tapRepublish,
            steps: startedBroadcast(.live) + [
                PublisherStep(1000, key(.incomingCall), [.pauseVideo(true), send("publisherBackground")], .pausedVideo),
                PublisherStep(3000, key(.decline), [send("publisherInterrupt"), .stop, .toast("Tap to Re-Publish!"), .armTap], .awaitingTap),
                PublisherStep(4000, .control(.nextPolicy), [.disarmTap, .pauseVideo(false)], .idle),
            ]
        ),
        PublisherScenario(
            "next policy during a call leaves the suspension to the policy that began it",
            policy: .backgroundAudio,
            steps: startedBroadcast(.live) + [
                PublisherStep(1000, key(.incomingCall), [.pauseVideo(true), .pauseAudio(true), BackgroundAudioPolicyTests.suspend], .interrupted),
                PublisherStep(2000, .control(.nextPolicy), [.toast("policy tap-republish takes effect when the interruption ends")], .interrupted),
                PublisherStep(11000, .timerFired(.suspension), [.dropConnection], .interrupted),
                PublisherStep(12000, key(.decline), [.pauseAudio(false), .pauseVideo(false), .requestKeyframe, publish(.live), .toast("policy tap-republish now in force")], .connecting),
            ]
        ),
        PublisherScenario(
            "a refused key changes nothing",
            policy: .tapRepublish,
            steps: startedBroadcast(.live) + [
                PublisherStep(1000, key(.decline), [], .publishing),
                PublisherStep(1100, key(.accept), [], .publishing),
                PublisherStep(1200, key(.returnToApp), [], .publishing),
            ]
        ),
    ]

    @Test("automatic reconnects", arguments: reconnects)
    func reconnect(_ scenario: PublisherScenario) {
        scenario.run()
    }

    @Test("operator controls", arguments: controls)
    func control(_ scenario: PublisherScenario) {
        scenario.run()
    }

    @Test("next policy cycles through all three and the dashboard shows it")
    func nextPolicyCycles() {
        var session = PublisherSession(configuration: PublisherConfiguration(streamName: stream, redactedURL: ""))
        var seen: [PublisherPolicyKind] = []
        for time in 0..<3 {
            _ = session.handle(.control(.nextPolicy), at: SessionTime(milliseconds: Int64(time)))
            seen.append(session.state.policy)
        }
        #expect(seen == [.resumeAppend, .backgroundAudio, .tapRepublish])
        #expect(session.policy.kind == .tapRepublish)
    }

    @Test("the event log holds every key, notification, action and network event, stamped in ms")
    func eventLogIsStamped() {
        var session = PublisherSession(configuration: PublisherConfiguration(streamName: stream, redactedURL: ""))
        _ = session.handle(.control(.start(nil)), at: SessionTime(milliseconds: 0))
        _ = session.handle(publishStarted, at: SessionTime(milliseconds: 120))
        _ = session.handle(key(.incomingCall), at: SessionTime(milliseconds: 1500))
        let log = session.state.log.entries.map { Row(time: $0.time.milliseconds, source: $0.source, text: $0.text) }
        #expect(log == [
            Row(time: 0, source: .key, text: "control start"),
            Row(time: 0, source: .policy, text: "→ publish cam type live on a new connection"),
            Row(time: 120, source: .rtmp, text: "NetStream.Publish.Start"),
            Row(time: 1500, source: .key, text: "key call"),
            Row(time: 1500, source: .lifecycle, text: "willResignActive"),
            Row(time: 1500, source: .policy, text: "→ pauseVideo = true"),
            Row(time: 1500, source: .message, text: "→ send publisherBackground(streamName=cam)"),
            Row(time: 1500, source: .lifecycle, text: "audioInterruptionBegan"),
        ])
        #expect(session.state.log.entries.last?.time.logStamp == "00:01.500")
    }

    struct Row: Equatable {
        let time: Int64
        let source: EventSource
        let text: String
    }

    @Test("a refused key is logged with its reason and shown as a notice")
    func refusalIsLoggedAndShown() throws {
        var session = PublisherSession(configuration: PublisherConfiguration(streamName: stream, redactedURL: ""))
        let actions = session.handle(key(.decline), at: SessionTime(milliseconds: 250))
        let reason = try #require(OperatorAction.decline.refusal(in: .active))
        #expect(actions.isEmpty)
        #expect(session.state.log.entries.last == EventLogEntry(time: SessionTime(milliseconds: 250), source: .key, text: "refused: \(reason)"))
        #expect(session.state.toasts.visible(at: SessionTime(milliseconds: 250)).map(\.text) == [reason])
    }

    @Test("each key posts its notifications to the log in iOS order", arguments: [
        ([OperatorAction.home, .returnToApp], ["willResignActive", "didEnterBackground", "willEnterForeground", "didBecomeActive"]),
        ([.incomingCall, .accept, .returnToApp], [
            "willResignActive", "audioInterruptionBegan", "didEnterBackground",
            "audioInterruptionEnded", "willEnterForeground", "didBecomeActive",
        ]),
        ([.siri, .decline, .tap], ["willResignActive", "didBecomeActive", "tap"]),
    ])
    func notificationsLogged(_ keys: [OperatorAction], _ expected: [String]) {
        var session = PublisherSession(configuration: PublisherConfiguration(streamName: stream, redactedURL: ""))
        for (index, action) in keys.enumerated() {
            _ = session.handle(.operator(action), at: SessionTime(milliseconds: Int64(index * 1000)))
        }
        let lifecycle = session.state.log.entries.filter { $0.source == .lifecycle }.map(\.text)
        #expect(lifecycle == expected)
        #expect(session.state.lifecycle == session.simulator.state)
    }

    @Test("running timers show their deadlines until they fire or are cancelled")
    func timerDeadlines() {
        var session = PublisherSession(configuration: PublisherConfiguration(streamName: stream, redactedURL: "", policy: .backgroundAudio))
        _ = session.handle(.control(.start(nil)), at: SessionTime(milliseconds: 0))
        _ = session.handle(publishStarted, at: SessionTime(milliseconds: 100))
        _ = session.handle(key(.incomingCall), at: SessionTime(milliseconds: 1000))
        _ = session.handle(lost(), at: SessionTime(milliseconds: 4000))
        #expect(session.state.timerDeadlines == [
            .suspension: SessionTime(milliseconds: 11000), .reconnect: SessionTime(milliseconds: 6000),
        ])
        _ = session.handle(.timerFired(.reconnect), at: SessionTime(milliseconds: 6000))
        #expect(session.state.timerDeadlines == [.suspension: SessionTime(milliseconds: 11000)])
        _ = session.handle(key(.decline), at: SessionTime(milliseconds: 7000))
        #expect(session.state.timerDeadlines.isEmpty)
        #expect(session.pendingTimers.isEmpty)
    }

    @Test("liveSince is the Publish.Start time and clears when the broadcast stops")
    func liveSince() {
        var session = PublisherSession(configuration: PublisherConfiguration(streamName: stream, redactedURL: ""))
        _ = session.handle(.control(.start(nil)), at: SessionTime(milliseconds: 0))
        #expect(session.state.liveSince == nil)
        _ = session.handle(publishStarted, at: SessionTime(milliseconds: 340))
        #expect(session.state.liveSince == SessionTime(milliseconds: 340))
        _ = session.handle(.control(.stop), at: SessionTime(milliseconds: 5000))
        #expect(session.state.liveSince == nil)
    }

    @Test("only toasts, the preview and the tap arming are display-only", arguments: [
        (PublisherAction.toast("x"), false), (.armTap, false), (.disarmTap, false), (.preview(true), false),
        (.pauseVideo(true), true), (.pauseAudio(false), true), (.send(handler: "h", parameter: "p"), true),
        (.publish(name: "n", type: .live), true), (.stop, true), (.requestKeyframe, true),
        (.dropConnection, true), (.scheduleTimer(.reconnect, after: .seconds(1)), true), (.cancelTimer(.suspension), true),
    ])
    func requiresOwner(_ action: PublisherAction, _ expected: Bool) {
        #expect(action.requiresOwner == expected)
    }
}
