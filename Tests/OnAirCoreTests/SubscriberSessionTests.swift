import OnAirCore
import Testing

/// One row of a subscriber table: at `time` ms feed `event`; expect exactly `actions`, the connection,
/// the seed's two flags, and the toast the pane shows (posted in `state.toasts`, not asked of the owner).
struct SubscriberStep: Sendable {
    let time: Int64
    let event: SubscriberEvent
    let actions: [SubscriberAction]
    let connection: SubscriberConnection
    let inBackground: Bool
    let disconnected: Bool
    let toast: String?

    init(
        _ time: Int64, _ event: SubscriberEvent, _ actions: [SubscriberAction], _ connection: SubscriberConnection,
        toast: String? = nil, inBackground: Bool = false, disconnected: Bool = false
    ) {
        self.toast = toast
        self.time = time
        self.event = event
        self.actions = actions
        self.connection = connection
        self.inBackground = inBackground
        self.disconnected = disconnected
    }
}

struct SubscriberScenario: Sendable, CustomTestStringConvertible {
    let name: String
    let steps: [SubscriberStep]

    init(_ name: String, _ steps: [SubscriberStep]) {
        self.name = name
        self.steps = steps
    }

    var testDescription: String { name }

    @discardableResult
    func run(sourceLocation: SourceLocation = #_sourceLocation) -> SubscriberSession {
        var session = SubscriberSession(streamName: stream, redactedURL: "rtmp://127.0.0.1/live/***")
        for (index, step) in steps.enumerated() {
            let toastsBefore = session.state.toasts.postedCount
            let actions = session.handle(step.event, at: SessionTime(milliseconds: step.time))
            let where_ = Comment(rawValue: "step \(index) (\(step.event))")
            #expect(actions == step.actions, where_, sourceLocation: sourceLocation)
            #expect(session.state.toasts.toasts(after: toastsBefore).map(\.text) == (step.toast.map { [$0] } ?? []),
                    where_, sourceLocation: sourceLocation)
            #expect(session.state.connection == step.connection, where_, sourceLocation: sourceLocation)
            #expect(session.state.publisherIsInBackground == step.inBackground, where_, sourceLocation: sourceLocation)
            #expect(session.state.publisherIsDisconnected == step.disconnected, where_, sourceLocation: sourceLocation)
        }
        return session
    }
}

@Suite("Subscriber session")
struct SubscriberSessionTests {
    static let play = SubscriberAction.play(name: stream)
    static let replayIn2s = SubscriberAction.scheduleTimer(.reconnect, after: .seconds(2))
    static func message(_ handler: String) -> SubscriberEvent { .message(handler: handler, parameter: parameter) }
    static func at(_ ms: Int64) -> SubscriberConnection { .reconnecting(at: SessionTime(milliseconds: ms)) }
    static let playing: [SubscriberStep] = [
        SubscriberStep(0, .control(.play), [play], .connecting),
        SubscriberStep(50, .status(.start), [], .waitingForPublisher),
        SubscriberStep(80, .mediaResumed, [], .playing),
    ]

    static let scenarios: [SubscriberScenario] = [
        SubscriberScenario("the publisher's background and foreground notices set the flag and toast", playing + [
            SubscriberStep(1000, message("publisherBackground"), [], .playing, toast: "Publish Background", inBackground: true),
            SubscriberStep(9000, message("publisherForeground"), [], .playing, toast: "Publisher Foreground"),
            SubscriberStep(9500, message("publisherInterrupt"), [], .playing, toast: "Publisher Interrupted"),
            SubscriberStep(9600, message("onCuePoint"), [], .playing),
        ]),
        SubscriberScenario("UnpublishNotify after a background notice loops stop-and-play every 2 s until the stream is back", playing + [
            SubscriberStep(1000, message("publisherBackground"), [], .playing, toast: "Publish Background", inBackground: true),
            SubscriberStep(3000, .status(.unpublishNotify), [replayIn2s], at(5000), inBackground: true, disconnected: true),
            SubscriberStep(5000, .timerFired(.reconnect), [.stop, play], .connecting, inBackground: true, disconnected: true),
            SubscriberStep(5050, .status(.streamNotFound), [replayIn2s], at(7050), inBackground: true, disconnected: true),
            SubscriberStep(7050, .timerFired(.reconnect), [.stop, play], .connecting, inBackground: true, disconnected: true),
            SubscriberStep(7060, .playFailed(reason: "connection refused"), [replayIn2s], at(9060), inBackground: true, disconnected: true),
            SubscriberStep(9060, .timerFired(.reconnect), [.stop, play], .connecting, inBackground: true, disconnected: true),
            SubscriberStep(9100, .status(.start), [], .waitingForPublisher, inBackground: true, disconnected: true),
            // Live media after it unpublished from the background: a new publish, in the foreground.
            SubscriberStep(9200, .mediaResumed, [], .playing),
        ]),
        SubscriberScenario("PublishNotify during the wait ends the loop at once", playing + [
            SubscriberStep(1000, message("publisherBackground"), [], .playing, toast: "Publish Background", inBackground: true),
            SubscriberStep(3000, .status(.unpublishNotify), [replayIn2s], at(5000), inBackground: true, disconnected: true),
            // A new publish began: the flag the last one set no longer holds (issue 28, problem 2).
            SubscriberStep(3500, .status(.publishNotify), [.cancelTimer(.reconnect)], .waitingForPublisher, disconnected: true),
            SubscriberStep(5000, .timerFired(.reconnect), [], .waitingForPublisher, disconnected: true),
            SubscriberStep(5100, .mediaResumed, [], .playing),
        ]),
        SubscriberScenario("media resuming ends the loop", playing + [
            SubscriberStep(1000, message("publisherBackground"), [], .playing, toast: "Publish Background", inBackground: true),
            SubscriberStep(3000, .status(.unpublishNotify), [replayIn2s], at(5000), inBackground: true, disconnected: true),
            SubscriberStep(4000, .mediaResumed, [.cancelTimer(.reconnect)], .playing),
        ]),
        SubscriberScenario("replayed frames after a re-play are REPLAYED, never PLAYING, and the loop goes on", playing + [
            SubscriberStep(1000, message("publisherBackground"), [], .playing, toast: "Publish Background", inBackground: true),
            SubscriberStep(4000, .mediaStalled, [replayIn2s], at(6000), inBackground: true, disconnected: true),
            SubscriberStep(6000, .timerFired(.reconnect), [.stop, play], .connecting, inBackground: true, disconnected: true),
            SubscriberStep(6050, .status(.start), [], .waitingForPublisher, inBackground: true, disconnected: true),
            SubscriberStep(6100, .mediaReplayed, [], .replaying, inBackground: true, disconnected: true),
            SubscriberStep(9100, .mediaStalled, [replayIn2s], at(11100), inBackground: true, disconnected: true),
            SubscriberStep(11100, .timerFired(.reconnect), [.stop, play], .connecting, inBackground: true, disconnected: true),
            SubscriberStep(11150, .mediaReplayed, [], .replaying, inBackground: true, disconnected: true),
            SubscriberStep(12000, .mediaResumed, [], .playing),
        ]),
        SubscriberScenario("old frames in the middle of a play are REPLAYED until live ones come", playing + [
            SubscriberStep(4000, .mediaStalled, [], .stalled),
            SubscriberStep(5000, .mediaReplayed, [], .replaying),
            SubscriberStep(8000, .mediaStalled, [], .stalled),
            SubscriberStep(9000, .mediaResumed, [], .playing),
        ]),
        SubscriberScenario("call, decline, tap: PublishNotify clears publisherIsInBackground, so a stall after it is STALLED, no loop", playing + [
            SubscriberStep(1000, message("publisherBackground"), [], .playing, toast: "Publish Background", inBackground: true),
            SubscriberStep(3000, .status(.unpublishNotify), [replayIn2s], at(5000), inBackground: true, disconnected: true),
            SubscriberStep(4000, .status(.publishNotify), [.cancelTimer(.reconnect)], .waitingForPublisher, disconnected: true),
            SubscriberStep(4100, .mediaResumed, [], .playing),
            SubscriberStep(8000, .mediaStalled, [], .stalled),
        ]),
        SubscriberScenario("UnpublishNotify without a background notice waits for the publisher, no loop", playing + [
            SubscriberStep(3000, .status(.unpublishNotify), [], .waitingForPublisher),
            SubscriberStep(8000, .status(.publishNotify), [], .waitingForPublisher),
            SubscriberStep(8100, .mediaResumed, [], .playing),
        ]),
        SubscriberScenario("the stall watchdog counts as the publisher gone", playing + [
            SubscriberStep(1000, message("publisherBackground"), [], .playing, toast: "Publish Background", inBackground: true),
            SubscriberStep(4000, .mediaStalled, [replayIn2s], at(6000), inBackground: true, disconnected: true),
            SubscriberStep(4500, .mediaStalled, [], at(6000), inBackground: true, disconnected: true),
        ]),
        SubscriberScenario("a stall without a background notice shows STALLED until media comes back", playing + [
            SubscriberStep(4000, .mediaStalled, [], .stalled),
            SubscriberStep(7000, .mediaResumed, [], .playing),
        ]),
        SubscriberScenario("the subscriber's own lost connection is retried the same way", playing + [
            SubscriberStep(2000, .connectionLost(reason: "reset"), [replayIn2s], at(4000)),
            SubscriberStep(4000, .timerFired(.reconnect), [.stop, play], .connecting),
            SubscriberStep(4100, .status(.start), [], .waitingForPublisher),
            SubscriberStep(4200, .mediaResumed, [], .playing),
        ]),
        SubscriberScenario("stop ends the loop and a late timer is ignored", playing + [
            SubscriberStep(1000, message("publisherBackground"), [], .playing, toast: "Publish Background", inBackground: true),
            SubscriberStep(3000, .status(.unpublishNotify), [replayIn2s], at(5000), inBackground: true, disconnected: true),
            SubscriberStep(3500, .control(.stop), [.cancelTimer(.reconnect), .stop], .idle, inBackground: true),
            SubscriberStep(5000, .timerFired(.reconnect), [], .idle, inBackground: true),
        ]),
        SubscriberScenario("Play.Start alone, as stock servers send for a name nobody publishes, waits: only media is PLAYING", [
            SubscriberStep(0, .control(.play), [play], .connecting),
            SubscriberStep(10, .status(.start), [], .waitingForPublisher),
            SubscriberStep(5000, .status(.publishNotify), [], .waitingForPublisher),
            SubscriberStep(5100, .mediaResumed, [], .playing),
        ]),
        SubscriberScenario("a first play that fails is an error; StreamNotFound waits", [
            SubscriberStep(0, .control(.play), [play], .connecting),
            SubscriberStep(10, .playFailed(reason: "connection refused"), [], .error("connection refused")),
            SubscriberStep(1000, .control(.play), [play], .connecting),
            SubscriberStep(1010, .status(.streamNotFound), [], .waitingForPublisher),
            SubscriberStep(1020, .control(.play), [], .waitingForPublisher),
        ]),
    ]

    @Test("notices and the reconnect loop", arguments: scenarios)
    func flow(_ scenario: SubscriberScenario) {
        scenario.run()
    }

    @Test("the loop counts its plays and resets the count when the stream is back")
    func reconnectAttemptsCounted() {
        var steps = Self.scenarios[1].steps
        steps.removeLast()
        let back = steps.removeLast()
        var session = SubscriberScenario("loop", steps).run()
        #expect(session.state.reconnectAttempts == 3)
        _ = session.handle(back.event, at: SessionTime(milliseconds: back.time))
        #expect(session.state.reconnectAttempts == 0)
    }

    @Test("every play asked for is counted and never reset, so a scenario counts reconnects without reading the log")
    func playsAskedNeverReset() {
        var steps = Self.scenarios[1].steps
        steps.removeLast()
        let back = steps.removeLast()
        var session = SubscriberScenario("loop", steps).run()
        let plays = steps.filter { $0.actions.contains { if case .play = $0 { true } else { false } } }.count
        #expect(plays == 4)
        #expect(session.state.playsAsked == plays)
        _ = session.handle(back.event, at: SessionTime(milliseconds: back.time))
        #expect(session.state.playsAsked == plays)
    }

    @Test("replayed frames on a loop's play keep its count: the play is counted, the loop goes on")
    func replayedFramesKeepTheCount() {
        let session = Self.scenarios.first { $0.name.hasPrefix("replayed frames after a re-play") }!
        var steps = session.steps
        steps.removeLast()
        let run = SubscriberScenario("replays", steps).run()
        #expect(run.state.reconnectAttempts == 1)
        #expect(run.phase == .replaying(loopPlays: 1))
    }

    struct RenderRow: Sendable, CustomTestStringConvertible {
        let keys: [OperatorAction]
        let actions: [[SubscriberAction]]
        let renderActive: [Bool]
        var testDescription: String { keys.map(\.rawValue).joined(separator: " → ") }
    }

    /// SubscribeBackgroundTest: pauseRender on willResignActive, resumeRender on willEnterForeground —
    /// and on didBecomeActive when still paused, so a declined call does not leave the display dead.
    @Test("the subscriber's own lifecycle pauses and resumes rendering", arguments: [
        RenderRow(keys: [.home, .returnToApp], actions: [[.pauseRender], [.resumeRender]], renderActive: [false, true]),
        RenderRow(keys: [.incomingCall, .decline], actions: [[.pauseRender], [.resumeRender]], renderActive: [false, true]),
        RenderRow(keys: [.siri, .decline], actions: [[.pauseRender], [.resumeRender]], renderActive: [false, true]),
        RenderRow(
            keys: [.incomingCall, .accept, .returnToApp], actions: [[.pauseRender], [], [.resumeRender]],
            renderActive: [false, false, true]
        ),
        RenderRow(keys: [.tap, .decline], actions: [[], []], renderActive: [true, true]),
    ])
    func render(_ row: RenderRow) {
        var session = SubscriberSession(streamName: stream, redactedURL: "")
        for (index, key) in row.keys.enumerated() {
            let actions = session.handle(.operator(key), at: SessionTime(milliseconds: Int64(index * 1000)))
            #expect(actions == row.actions[index], "\(key.rawValue)")
            #expect(session.state.renderActive == row.renderActive[index], "\(key.rawValue)")
        }
        #expect(session.state.lifecycle == session.simulator.state)
    }

    /// Issue 28 (8): a cap preset that changed nothing visible left no trace either.
    @Test("every link change is a line of the pane's event log, on either side, and changes nothing else")
    func linkChangesLogged() {
        var subscriber = SubscriberSession(streamName: stream, redactedURL: "")
        let before = subscriber.state.connection
        #expect(subscriber.handle(.linkChanged("link-cap 500k: link 500k"), at: SessionTime(milliseconds: 10)) == [])
        #expect(subscriber.state.log.entries.last?.text == "link-cap 500k: link 500k")
        #expect(subscriber.state.connection == before)
        var publisher = PublisherSession(configuration: PublisherConfiguration(streamName: stream, redactedURL: ""))
        #expect(publisher.handle(.network(.linkChanged("link-down: link DOWN")), at: SessionTime(milliseconds: 10)) == [])
        #expect(publisher.state.log.entries.last?.text == "link-down: link DOWN")
        #expect(publisher.state.log.entries.last?.source == .engine)
    }

    @Test("the subscriber log is stamped in ms")
    func logStamped() {
        let session = Self.scenarios[1].run()
        let unpublish = session.state.log.entries.first { $0.text == PlayStatus.unpublishNotify.rawValue }
        #expect(unpublish?.time == SessionTime(milliseconds: 3000))
        #expect(unpublish?.source == .rtmp)
    }
}
