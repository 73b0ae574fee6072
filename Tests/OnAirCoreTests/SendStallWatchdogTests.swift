import OnAirCore
import Testing

@Suite("Send-stall watchdog and wire rates")
struct SendStallWatchdogTests {
    /// One step of a watchdog table: a report of the counters, or the session's timer asking for a verdict.
    enum Step: Sendable {
        /// (ms, bytes written so far, a write waiting)
        case report(Int64, UInt64, Bool)
        /// (ms) → the verdict
        case check(Int64, SendStallWatchdog.Verdict)
    }

    struct Row: Sendable, CustomTestStringConvertible {
        let name: String
        let steps: [Step]
        var testDescription: String { name }
    }

    static func at(_ ms: Int64) -> SessionTime { SessionTime(milliseconds: ms) }
    static func flowing(_ recheck: Int64) -> SendStallWatchdog.Verdict { .flowing(recheckAt: at(recheck)) }
    static func stalled(_ since: Int64, _ tearDown: Int64) -> SendStallWatchdog.Verdict {
        .stalled(SendStall(since: at(since), tearDownAt: at(tearDown)))
    }

    @Test("STALLED after N s of a waiting write with no bytes taken, torn down at 3N; checks name the next look", arguments: [
        Row(name: "bytes keep moving: flowing, the next look 5 s after the last progress", steps: [
            .report(1000, 0, true), .report(3000, 100, true), .check(5000, flowing(8000)),
            .report(6000, 200, true), .check(8000, flowing(11000)),
        ]),
        Row(name: "nothing waiting is quiet, not stalled", steps: [
            .report(0, 100, false), .report(4000, 100, false), .check(9000, .awaitingReport),
            .report(9500, 100, false), .check(14500, .awaitingReport),
        ]),
        Row(name: "a waiting write with no progress: STALLED at 5 s, torn down at 15 s", steps: [
            .report(0, 100, true), .report(4000, 100, true), .check(4999, flowing(5000)),
            .check(5000, stalled(0, 15000)), .report(9000, 100, true), .check(14999, stalled(0, 15000)),
            .check(15000, .tearDown(stalledFor: .seconds(15))),
        ]),
        Row(name: "progress during the stall starts the count again", steps: [
            .report(0, 100, true), .report(1000, 100, true), .check(6000, stalled(0, 15000)),
            .report(7000, 150, true), .check(7000, flowing(12000)), .report(11000, 150, true),
            .check(12000, stalled(7000, 22000)),
        ]),
        Row(name: "quiet past the limit with no report since the last progress: the next report decides", steps: [
            .report(0, 100, true), .check(5000, .awaitingReport), .report(5200, 100, true), .check(5200, stalled(0, 15000)),
        ]),
        Row(name: "the first report of a connection counts as progress, whatever its count", steps: [
            .report(3000, 9000, true), .check(5000, flowing(8000)),
        ]),
    ])
    func verdicts(_ row: Row) {
        var watchdog = SendStallWatchdog(stallAfter: .seconds(5), liveAt: .zero)
        for step in row.steps {
            switch step {
            case .report(let ms, let bytes, let pending):
                watchdog.record(WireProgress(bytesWritten: bytes, writePending: pending), at: Self.at(ms))
            case .check(let ms, let verdict):
                #expect(watchdog.check(at: Self.at(ms)) == verdict, "at \(ms) ms")
            }
        }
    }

    @Test("a live publisher shows STALLED with its countdown when its timer says so, then reconnects past the limit")
    func sessionStallsAndReconnects() {
        var session = PublisherSession(configuration: PublisherConfiguration(streamName: "cam", redactedURL: "", sendTimeout: .seconds(2)))
        _ = session.handle(.control(.start(nil)), at: .zero)
        #expect(session.handle(.network(.publishStarted), at: Self.at(100)) == [.scheduleTimer(.sendStall, after: .seconds(2))])
        let stuck = PublisherEvent.wire(WireProgress(bytesWritten: 5000, writePending: true))
        #expect(session.handle(stuck, at: Self.at(1000)).isEmpty, "a report only updates the watchdog while its timer runs")
        #expect(session.handle(.timerFired(.sendStall), at: Self.at(2100)) == [.scheduleTimer(.sendStall, after: .milliseconds(900))])
        #expect(session.state.status == .publishing)
        _ = session.handle(stuck, at: Self.at(2500))
        #expect(session.state.status == .publishing, "reports alone never decide STALLED")
        #expect(session.handle(.timerFired(.sendStall), at: Self.at(3000)) == [.scheduleTimer(.sendStall, after: .seconds(4))])
        #expect(session.state.status == .stalled)
        #expect(session.state.sendStall == SendStall(since: Self.at(1000), tearDownAt: Self.at(7000)))
        let actions = session.handle(.timerFired(.sendStall), at: Self.at(7000))
        #expect(actions == [.abandonConnection, .scheduleTimer(.reconnect, after: .seconds(2))])
        #expect(session.state.status == .reconnecting(attempt: 1, maxAttempts: 20))
        #expect(session.pendingTimers == [.reconnect], "no watchdog timer outlives the live phase")
        #expect(session.state.onAirSince == SessionTime(milliseconds: 100), "time on air survives the reconnect")
        _ = session.handle(.timerFired(.reconnect), at: Self.at(7000))
        _ = session.handle(.network(.publishStarted), at: Self.at(7100))
        #expect(session.state.status == .publishing)
        #expect(session.state.onAirSince == SessionTime(milliseconds: 100))
        #expect(session.state.liveSince == SessionTime(milliseconds: 7100))
    }

    @Test("bytes taken during STALLED end it at once: the countdown stops and the watchdog looks again later")
    func stallEndsOnProgress() {
        var session = PublisherSession(configuration: PublisherConfiguration(streamName: "cam", redactedURL: "", sendTimeout: .seconds(2)))
        _ = session.handle(.control(.start(nil)), at: .zero)
        _ = session.handle(.network(.publishStarted), at: .zero)
        _ = session.handle(.wire(WireProgress(bytesWritten: 10, writePending: true)), at: Self.at(500))
        _ = session.handle(.wire(WireProgress(bytesWritten: 10, writePending: true)), at: Self.at(2000))
        _ = session.handle(.timerFired(.sendStall), at: Self.at(2500))
        #expect(session.state.status == .stalled)
        let actions = session.handle(.wire(WireProgress(bytesWritten: 11, writePending: true)), at: Self.at(3000))
        #expect(actions == [.scheduleTimer(.sendStall, after: .seconds(2))])
        #expect(session.state.status == .publishing)
        #expect(session.state.sendStall == nil)
        #expect(session.state.timerDeadlines[.sendStall] == Self.at(5000))
    }

    @Test("stopping a live broadcast cancels the watchdog's timer")
    func stopCancels() {
        var session = PublisherSession(configuration: PublisherConfiguration(streamName: "cam", redactedURL: ""))
        _ = session.handle(.control(.start(nil)), at: .zero)
        _ = session.handle(.network(.publishStarted), at: Self.at(100))
        #expect(session.pendingTimers == [.sendStall])
        #expect(session.handle(.control(.stop), at: Self.at(200)) == [.cancelTimer(.sendStall), .stop])
        #expect(session.pendingTimers.isEmpty)
        #expect(session.handle(.timerFired(.sendStall), at: Self.at(5100)).isEmpty, "a stale timer is ignored")
    }

    @Test("wire rates read what was written over the last second and fall to 0 within a second of the last write")
    func wireRates() {
        var meter = WireRateMeter()
        meter.sample(bytes: 0, frames: 0, at: .zero)
        meter.sample(bytes: 50_000, frames: 15, at: SessionTime(milliseconds: 500))
        meter.sample(bytes: 100_000, frames: 30, at: SessionTime(milliseconds: 1000))
        #expect(meter.bitrate == 800_000)
        #expect(meter.framesPerSecond == 30)
        meter.sample(bytes: 100_000, frames: 30, at: SessionTime(milliseconds: 1500))
        #expect(meter.bitrate == 400_000)
        meter.sample(bytes: 100_000, frames: 30, at: SessionTime(milliseconds: 2000))
        #expect(meter.bitrate == 0)
        #expect(meter.framesPerSecond == 0)
        #expect(meter.history == [0, 800_000, 0])
    }
}
