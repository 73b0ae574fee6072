import OnAirCore
@testable import OnAirScenario
import Testing

/// Expectations judged against what both sides printed, and the figures of the report.
@Suite("scenario timeline and verdicts")
struct ScenarioTimelineTests {
    /// The observation of an event as the test names it: `state`/`stats` fields, a toast, else a log line.
    private func event(_ ms: Int64, _ side: String, _ kind: String, _ fields: [String: ScenarioValue]) -> ScenarioObservation {
        let text = fields["text"]?.text ?? ""
        let what: ScenarioObservation.What = switch kind {
        case "state": .state(fields)
        case "stats": .stats(fields)
        case "toast": .toast(text)
        default: .log(text)
        }
        return ScenarioObservation(milliseconds: ms, side: side, what)
    }

    private func publisherState(_ ms: Int64, _ status: String, pauseVideo: Bool = false) -> ScenarioObservation {
        event(ms, "publisher", "state", ["status": .text(status), "pauseVideo": .flag(pauseVideo), "lifecycle": .text("ACTIVE")])
    }

    /// The typed status a badge stands for, as the front end reports it beside the `state` event.
    private func publisherStatus(_ ms: Int64, _ badge: String) -> ScenarioObservation {
        let statuses: [PublisherStatus] = [.idle, .connecting, .publishing, .pausedVideo, .interrupted, .awaitingTap, .stalled]
            + (1...20).map { .reconnecting(attempt: $0, maxAttempts: 20) }
        return ScenarioObservation(milliseconds: ms, side: "publisher", .publisherStatus(statuses.first { $0.badge == badge }!))
    }

    @Test("a toast counts only once posted after the last press, and text compares ignoring case")
    func toastsSinceLastPress() {
        var timeline = ScenarioTimeline()
        timeline.record(event(100, "subscriber", "toast", ["text": .text("Publish Background")]))
        timeline.recordPress(.phone(.decline), typed: "decline", line: 7, at: 200)
        let condition = ScenarioExpectation.Condition.toast(.subscriber, "publish background")
        #expect(timeline.verdict(for: condition, recording: nil) == .unmet(seen: "no subscriber toast"))
        timeline.record(event(250, "subscriber", "toast", ["text": .text("Publisher Interrupted")]))
        #expect(timeline.verdict(for: condition, recording: nil) == .unmet(seen: "toasts \"Publisher Interrupted\""))
        timeline.record(event(300, "subscriber", "toast", ["text": .text("Publish Background")]))
        #expect(timeline.verdict(for: condition, recording: nil) == .met)
        #expect(timeline.verdict(for: .toast(.publisher, "Publish Background"), recording: nil) == .unmet(seen: "no publisher toast"))
    }

    @Test("expect no … toast holds until the toast appears, then can never hold again")
    func negativeToast() {
        var timeline = ScenarioTimeline()
        let condition = ScenarioExpectation.Condition.noToast(.publisher, "Tap to Re-Publish!")
        #expect(timeline.verdict(for: condition, recording: nil) == .met)
        timeline.record(event(1500, "publisher", "toast", ["text": .text("Tap to Re-Publish!")]))
        #expect(timeline.verdict(for: condition, recording: nil) == .broken(seen: "the publisher showed \"Tap to Re-Publish!\" at 1.50s"))
    }

    @Test("expect no … log holds until a matching line appears, then can never hold again")
    func negativeLog() {
        var timeline = ScenarioTimeline()
        let condition = ScenarioExpectation.Condition.noLog(.subscriber, "media resumed")
        timeline.record(event(900, "subscriber", "engine", ["text": .text("replayed frames: captured before the newest shown, not live")]))
        #expect(timeline.verdict(for: condition, recording: nil) == .met)
        timeline.record(event(1500, "subscriber", "engine", ["text": .text("media resumed")]))
        #expect(timeline.verdict(for: condition, recording: nil) == .broken(seen: "the subscriber logged \"media resumed\" at 1.50s"))
    }

    @Test("log lines match by substring, of every log kind")
    func logLines() {
        var timeline = ScenarioTimeline()
        timeline.record(event(10, "subscriber", "status", ["text": .text("NetStream.Play.UnpublishNotify")]))
        #expect(timeline.verdict(for: .log(.subscriber, "unpublishnotify"), recording: nil) == .met)
        #expect(timeline.verdict(for: .log(.publisher, "UnpublishNotify"), recording: nil) == .unmet(seen: "no publisher log line"))
    }

    @Test("fields come from the latest state, then the latest stats; numbers compare as numbers")
    func fields() {
        var timeline = ScenarioTimeline()
        #expect(timeline.verdict(for: .field(.publisher, "status", .equals("PUBLISHING")), recording: nil)
            == .unmet(seen: "no field status (fields: )"))
        timeline.record(publisherState(10, "CONNECTING"))
        timeline.record(event(20, "publisher", "stats", ["fps": .number(29.5), "dropped": .number(0)]))
        #expect(timeline.verdict(for: .field(.publisher, "status", .equals("PUBLISHING")), recording: nil)
            == .unmet(seen: "publisher status is CONNECTING"))
        timeline.record(publisherState(30, "PUBLISHING"))
        #expect(timeline.verdict(for: .field(.publisher, "status", .equals("publishing")), recording: nil) == .met)
        #expect(timeline.verdict(for: .field(.publisher, "pauseVideo", .equals("false")), recording: nil) == .met)
        #expect(timeline.verdict(for: .field(.publisher, "fps", .above(25)), recording: nil) == .met)
        #expect(timeline.verdict(for: .field(.publisher, "fps", .below(25)), recording: nil) == .unmet(seen: "publisher fps is 29.5"))
        #expect(timeline.verdict(for: .field(.publisher, "status", .above(1)), recording: nil) == .unmet(seen: "publisher status is PUBLISHING"))
    }

    @Test("a field missing from both a state and a stats event is a typo: fail at once, listing the fields")
    func unknownField() {
        var timeline = ScenarioTimeline()
        timeline.record(publisherState(10, "PUBLISHING"))
        guard case .unmet = timeline.verdict(for: .field(.publisher, "staus", .equals("X")), recording: nil) else {
            Issue.record("before any stats the field may still come")
            return
        }
        timeline.record(event(20, "publisher", "stats", ["fps": .number(30)]))
        #expect(timeline.verdict(for: .field(.publisher, "staus", .equals("X")), recording: nil)
            == .broken(seen: "no field staus (fields: fps, lifecycle, pauseVideo, status)"))
    }

    @Test("increases is anchored at the value when the expectation starts")
    func increases() {
        var timeline = ScenarioTimeline()
        timeline.record(event(10, "subscriber", "stats", ["framesDecoded": .number(90)]))
        let anchored = ScenarioExpectation.Condition.field(.subscriber, "framesDecoded", .increases).anchored(in: timeline)
        #expect(anchored == .field(.subscriber, "framesDecoded", .above(90)))
        #expect(timeline.verdict(for: anchored, recording: nil) == .unmet(seen: "subscriber framesDecoded is 90"))
        timeline.record(event(1010, "subscriber", "stats", ["framesDecoded": .number(91)]))
        #expect(timeline.verdict(for: anchored, recording: nil) == .met)
    }

    @Test("the subscriber's video gap: the longest so far, including the one still open")
    func videoGap() {
        var timeline = ScenarioTimeline()
        #expect(timeline.verdict(for: .videoGap(below: .seconds(3)), recording: nil) == .unmet(seen: "no subscriber stats yet"))
        timeline.record(event(1000, "subscriber", "stats", ["longestVideoGapMs": .number(40), "videoGapMs": .number(2500)]))
        #expect(timeline.verdict(for: .videoGap(below: .seconds(3)), recording: nil) == .met)
        timeline.record(event(2000, "subscriber", "stats", ["longestVideoGapMs": .number(3400), "videoGapMs": .number(10)]))
        #expect(timeline.verdict(for: .videoGap(below: .seconds(3)), recording: nil) == .broken(seen: "a gap of 3.40s without video"))
        #expect(timeline.metrics.longestVideoGap == .milliseconds(3400))
    }

    @Test("recordings: duration within the tolerance; continuity breaks on a jump or a step back")
    func recordings() {
        let timeline = ScenarioTimeline()
        let good = RecordingSummary(name: "s", duration: .milliseconds(7210), tags: 216, largestJump: .milliseconds(34), goesBackwards: false)
        #expect(timeline.verdict(for: .recording(name: nil, .lasts(.seconds(7), tolerance: .milliseconds(700))), recording: good) == .met)
        #expect(timeline.verdict(for: .recording(name: nil, .lasts(.seconds(9), tolerance: .milliseconds(500))), recording: good)
            == .unmet(seen: "s.flv lasts 7.21s (216 tags)"))
        #expect(timeline.verdict(for: .recording(name: nil, .continuous), recording: good) == .met)
        var jumped = good
        jumped.largestJump = .milliseconds(2400)
        #expect(timeline.verdict(for: .recording(name: nil, .continuous), recording: jumped) == .unmet(seen: "s.flv jumps 2.40s between two tags"))
        var backwards = good
        backwards.goesBackwards = true
        #expect(timeline.verdict(for: .recording(name: nil, .continuous), recording: backwards)
            == .unmet(seen: "s.flv has timestamps that go backwards"))
        #expect(timeline.verdict(for: .recording(name: nil, .continuous), recording: nil) == .unmet(seen: "no recording file"))
    }

    struct Flow: Sendable, CustomStringConvertible {
        var name: String
        var steps: [(ms: Int64, press: String?, status: String?)]
        var expected: [String]
        var description: String { name }
    }

    static let flows: [Flow] = [
        Flow(name: "tap-republish: the tap, not the decline, brings it back", steps: [
            (0, nil, "CONNECTING"), (100, nil, "PUBLISHING"), (3000, "call", nil), (3001, nil, "PAUSED VIDEO"),
            (5000, "decline", nil), (5001, nil, "AWAITING TAP"), (7000, "tap", nil), (7001, nil, "CONNECTING"), (7120, nil, "PUBLISHING"),
        ], expected: ["tap 0.12s"]),
        Flow(name: "resume-append: the decline brings it back", steps: [
            (0, nil, "CONNECTING"), (100, nil, "PUBLISHING"), (3000, "call", nil), (3001, nil, "INTERRUPTED"),
            (5000, "decline", nil), (5001, nil, "CONNECTING"), (5090, nil, "PUBLISHING"),
        ], expected: ["decline 0.09s"]),
        Flow(name: "an automatic reconnect is timed from losing the connection", steps: [
            (0, nil, "CONNECTING"), (100, nil, "PUBLISHING"), (4000, nil, "RECONNECTING 1/20"), (6000, nil, "RECONNECTING 2/20"),
            (9000, nil, "PUBLISHING"),
        ], expected: ["reconnect 5.00s"]),
        Flow(name: "the first start is not a return", steps: [
            (0, nil, "CONNECTING"), (100, nil, "PUBLISHING"), (2000, "home", nil), (2001, nil, "PAUSED VIDEO"), (4000, "return", nil), (4001, nil, "PUBLISHING"),
        ], expected: []),
    ]

    @Test("key → publishing in the report", arguments: flows)
    func backToPublishing(_ flow: Flow) {
        var timeline = ScenarioTimeline()
        for step in flow.steps {
            if let press = step.press, let command = OperatorCommand(press) { timeline.recordPress(command, typed: press, line: 1, at: step.ms) }
            if let status = step.status { timeline.record(publisherStatus(step.ms, status)) }
        }
        #expect(timeline.metrics.backToPublishing.map { "\($0.trigger) \($0.duration.secondsText)" } == flow.expected)
    }

    @Test("reconnect attempts: the highest the publisher's badge showed; the subscriber's plays after its first")
    func reconnects() {
        var timeline = ScenarioTimeline()
        timeline.record(publisherStatus(0, "RECONNECTING 1/20"))
        timeline.record(publisherStatus(10, "RECONNECTING 3/20"))
        timeline.record(publisherStatus(20, "PUBLISHING"))
        for (ms, plays): (Int64, Int) in [(30, 1), (2030, 2), (4030, 3)] {
            timeline.record(ScenarioObservation(milliseconds: ms, side: "subscriber", .subscriberPlays(plays)))
        }
        timeline.record(event(40, "subscriber", "action", ["text": .text("→ stop")]))
        #expect(timeline.metrics.publisherReconnectAttempts == 3)
        #expect(timeline.metrics.subscriberReconnectAttempts == 2)
    }

    @Test("the subscriber's reconnects are counted from its plays, never from the text of its log")
    func reconnectsNotFromLogText() {
        var timeline = ScenarioTimeline()
        for ms: Int64 in [30, 2030, 4030] {
            timeline.record(event(ms, "subscriber", "action", ["text": .text("→ play stream1 on a new connection")]))
        }
        #expect(timeline.metrics.subscriberReconnectAttempts == 0)
        timeline.record(ScenarioObservation(milliseconds: 5000, side: "subscriber", .subscriberPlays(1)))
        #expect(timeline.metrics.subscriberReconnectAttempts == 0)
    }

    @Test("a device lost or back amends the stats field at once; the next stats line rules; none before the first stats line")
    func deviceChangesBetweenStats() {
        var timeline = ScenarioTimeline()
        timeline.record(ScenarioObservation(milliseconds: 10, side: "publisher", .device("camera", available: false)))
        #expect(timeline.field("camera", of: "publisher") == nil, "no stats line yet: nothing to amend")
        #expect(!timeline.hasFullPicture(of: "publisher"))
        timeline.record(ScenarioObservation(milliseconds: 1000, side: "publisher", .stats(["camera": .text("available"), "microphone": .text("available")])))
        timeline.record(ScenarioObservation(milliseconds: 1040, side: "publisher", .device("camera", available: false)))
        #expect(timeline.field("camera", of: "publisher") == .text("lost"))
        #expect(timeline.field("microphone", of: "publisher") == .text("available"))
        timeline.record(ScenarioObservation(milliseconds: 1500, side: "publisher", .device("camera", available: true)))
        #expect(timeline.field("camera", of: "publisher") == .text("available"))
        timeline.record(ScenarioObservation(milliseconds: 2000, side: "publisher", .stats(["camera": .text("lost"), "microphone": .text("available")])))
        #expect(timeline.field("camera", of: "publisher") == .text("lost"))
    }
}
