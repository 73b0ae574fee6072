import OnAirCore
import Testing

@Suite("Send-stall watchdog and wire rates")
struct SendStallWatchdogTests {
    struct Row: Sendable, CustomTestStringConvertible {
        let name: String
        /// (ms, bytes written so far, a write waiting) → verdict
        let samples: [(Int64, UInt64, Bool, SendStallWatchdog.Verdict)]
        var testDescription: String { name }
    }

    static func stalled(_ since: Int64, _ tearDown: Int64) -> SendStallWatchdog.Verdict {
        .stalled(since: SessionTime(milliseconds: since), tearDownAt: SessionTime(milliseconds: tearDown))
    }

    @Test("STALLED after N s of a waiting write with no bytes taken, torn down at 2N", arguments: [
        Row(name: "bytes keep moving: flowing", samples: [
            (0, 0, true, .flowing), (3000, 100, true, .flowing), (6000, 200, true, .flowing), (12000, 300, true, .flowing),
        ]),
        Row(name: "nothing waiting is quiet, not stalled", samples: [
            (0, 100, false, .flowing), (6000, 100, false, .flowing), (20000, 100, false, .flowing),
        ]),
        Row(name: "a waiting write with no progress: STALLED at 5 s, torn down at 10 s", samples: [
            (0, 100, true, .flowing), (4999, 100, true, .flowing), (5000, 100, true, stalled(0, 10000)),
            (9000, 100, true, stalled(0, 10000)), (10000, 100, true, .tearDown(stalledFor: .seconds(10))),
        ]),
        Row(name: "progress during the stall starts the count again", samples: [
            (0, 100, true, .flowing), (6000, 100, true, stalled(0, 10000)), (7000, 150, true, .flowing),
            (11000, 150, true, .flowing), (12000, 150, true, stalled(7000, 17000)),
        ]),
    ])
    func verdicts(_ row: Row) {
        var watchdog = SendStallWatchdog(stallAfter: .seconds(5))
        for (ms, bytes, pending, verdict) in row.samples {
            #expect(watchdog.observe(bytesWritten: bytes, writePending: pending, at: SessionTime(milliseconds: ms)) == verdict, "at \(ms) ms")
        }
    }

    @Test("a live publisher shows STALLED with its countdown, then reconnects past the limit")
    func sessionStallsAndReconnects() {
        var session = PublisherSession(configuration: PublisherConfiguration(streamName: "cam", redactedURL: "", sendTimeout: .seconds(2)))
        _ = session.handle(.control(.start(nil)), at: .zero)
        _ = session.handle(.network(.publishStarted), at: SessionTime(milliseconds: 100))
        let stuck = PublisherEvent.wire(WireProgress(bytesWritten: 5000, writePending: true))
        _ = session.handle(stuck, at: SessionTime(milliseconds: 1000))
        #expect(session.state.status == .publishing)
        _ = session.handle(stuck, at: SessionTime(milliseconds: 3000))
        #expect(session.state.status == .stalled)
        #expect(session.state.sendStall == SendStall(since: SessionTime(milliseconds: 1000), tearDownAt: SessionTime(milliseconds: 5000)))
        let actions = session.handle(stuck, at: SessionTime(milliseconds: 5000))
        #expect(actions == [.abandonConnection, .scheduleTimer(.reconnect, after: .seconds(2))])
        #expect(session.state.status == .reconnecting(attempt: 1, maxAttempts: 20))
        #expect(session.state.onAirSince == SessionTime(milliseconds: 100), "time on air survives the reconnect")
        _ = session.handle(.timerFired(.reconnect), at: SessionTime(milliseconds: 7000))
        _ = session.handle(.network(.publishStarted), at: SessionTime(milliseconds: 7100))
        #expect(session.state.status == .publishing)
        #expect(session.state.onAirSince == SessionTime(milliseconds: 100))
        #expect(session.state.liveSince == SessionTime(milliseconds: 7100))
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
