import OnAirCore
import OnAirScenario
import Testing

/// Network scenarios (issue 16): the settings they need, link presses checked at parse time, the subscriber's
/// frozen time over a window, and the report's network figures.
@Suite("scenario network settings, frozen windows and figures")
struct ScenarioNetworkTests {
    private func subscriberStats(_ ms: Int64, frozen: Int64) -> ScenarioObservation {
        ScenarioObservation(milliseconds: ms, side: "subscriber", .stats(["frozenMs": .number(Double(frozen))]))
    }

    private func publisherStats(_ ms: Int64, sent: Int, drops: Int = 0) -> ScenarioObservation {
        ScenarioObservation(
            milliseconds: ms, side: "publisher", .stats(["bitrate": .number(Double(sent)), "droppedVideoPackets": .number(Double(drops)), "droppedAudioPackets": .number(0)]))
    }

    @Test("abr, bitrate, size and fps settings; link presses of up to four words")
    func settingsAndLinkPresses() throws {
        let scenario = try ScenarioParser.parse("""
            abr Throughput
            bitrate 2.5M
            size 1920x1080
            fps 30
            press link-cap 800k
            press sub handoff 300k 120
            press LINK-DOWN
            expect subscriber frozen below 500ms for 38s
            """, source: "x")
        #expect(scenario.settings.abr == .throughput)
        #expect(scenario.settings.bitrate == 2_500_000)
        #expect(scenario.settings.size == ScenarioPictureSize("1920x1080") && scenario.settings.size?.text == "1920x1080")
        #expect(scenario.settings.framesPerSecond == 30)
        #expect(scenario.steps.prefix(3).map(\.action) == [.press(.link(.cap(bitsPerSecond: 800_000)), typed: "link-cap 800k"), .press(.subscriberLink(.handoff(capBitsPerSecond: 300_000, delay: .milliseconds(120))), typed: "sub handoff 300k 120"), .press(.link(.down), typed: "link-down")])
        let frozen = try #require(scenario.expectations.first)
        #expect(frozen.condition == .frozen(below: .milliseconds(500), since: nil))
        #expect(frozen.within == .seconds(38) && frozen.waitsOut)
    }

    @Test("bad network settings and link values are refused with the file and line", arguments: [
        ("wait 1s\npress link-cap 9", 2, "`press link-cap 9`: '9' is not a rate between 8k and 10G bit/s"),
        ("press sub link-delay soon", 1, "'soon' is not a delay"),
        ("press subscriber handoff fast", 1, "'fast' is not a rate"),
        ("press link-cap", 1, "link-cap needs a value"),
        ("press link-up now", 1, "too many values after link-up"),
        ("wait 1s\npress server-busy 1h", 2, "`press server-busy 1h`: server-busy: '1h' is not a duration between 100ms and 300s"),
        ("press handoff 1M 40 50 60", 1, "`press` takes a command"),
        ("abr sometimes\nwait 1s", 1, "unknown abr mode 'sometimes'; modes: off, ladder, throughput"),
        ("bitrate fast\nwait 1s", 1, "'fast' is not a bitrate"),
        ("bitrate 2G\nwait 1s", 1, "'2G' is not a bitrate"),
        ("size 1281x720\nwait 1s", 1, "is not a picture size"),
        ("size 99999x720\nwait 1s", 1, "is not a picture size"),
        ("fps 0\nwait 1s", 1, "is not a frame rate"),
        ("fps 1000\nwait 1s", 1, "is not a frame rate"),
        ("expect subscriber frozen below 1s", 1, "expect subscriber frozen below D for W"),
        ("expect subscriber frozen below 1s for 5s within 5s", 1, "expect subscriber frozen below D for W"),
        ("expect publisher frozen below 1s for 5s", 1, "expect subscriber frozen below D for W"),
    ])
    func refusals(_ text: String, _ line: Int, _ message: String) {
        #expect {
            try ScenarioParser.parse(text, source: "net.scenario")
        } throws: { error in
            guard let error = error as? ScenarioParseError else { return false }
            return error.line == line && error.message.contains(message) && error.description.hasPrefix("net.scenario:\(line): ")
        }
    }

    @Test("frozen below D counts the subscriber's frozen time from the line's start; a freeze past D fails at once")
    func frozenWindow() {
        var timeline = ScenarioTimeline()
        timeline.record(subscriberStats(1000, frozen: 4000))  // an earlier freeze (the elevator) does not count
        let condition = timeline.begin(.frozen(below: .milliseconds(500), since: nil), within: .seconds(10), at: 1100)
        #expect(condition == .frozen(below: .milliseconds(500), since: .init(milliseconds: 1100, frozenMilliseconds: 4000, statsSeen: 1)))
        #expect(timeline.verdict(for: condition, recording: nil) == .unmet(seen: "no subscriber stats since the line started"))
        timeline.record(subscriberStats(2000, frozen: 4300))
        #expect(timeline.verdict(for: condition, recording: nil) == .met)
        timeline.record(subscriberStats(3000, frozen: 4600))
        #expect(timeline.verdict(for: condition, recording: nil)
            == .broken(seen: "the subscriber's picture froze 0.60s in all since the line started (frozenMs 4000 → 4600)"))
        #expect(timeline.metrics.frozenAfterConverging == .milliseconds(600))
    }

    @Test("gap below D for W: the open gap of each stats event after the start, and the longest once it grows; an earlier gap does not count")
    func gapWindow() throws {
        var timeline = ScenarioTimeline()
        func gap(_ ms: Int64, _ current: Int, _ longest: Int) {
            timeline.record(ScenarioObservation(milliseconds: ms, side: "subscriber", .stats(["videoGapMs": .number(Double(current)), "longestVideoGapMs": .number(Double(longest))])))
        }
        gap(1000, 10_000, 10_000)  // the elevator's gap, before the window
        let scenario = try ScenarioParser.parse("expect subscriber gap below 1s for 10s", source: "x")
        let expectation = try #require(scenario.expectations.first)
        #expect(expectation.waitsOut && expectation.within == .seconds(10))
        let condition = timeline.begin(expectation.condition, within: expectation.within, at: 1500)
        #expect(timeline.verdict(for: condition, recording: nil) == .unmet(seen: "no subscriber stats since the line started"))
        gap(2000, 30, 10_000)
        gap(3000, 900, 10_000)
        #expect(timeline.verdict(for: condition, recording: nil) == .met)
        gap(4000, 1200, 10_000)
        #expect(timeline.verdict(for: condition, recording: nil) == .broken(seen: "the subscriber went 1.20s without video since the line started"))
        #expect(timeline.metrics.longestGapAfterConverging == .milliseconds(1200))

        // A gap that closed between two events still shows in the session's longest when that grows.
        var fresh = ScenarioTimeline()
        fresh.record(ScenarioObservation(milliseconds: 0, side: "subscriber", .stats(["videoGapMs": .number(20), "longestVideoGapMs": .number(300)])))
        let window = fresh.begin(expectation.condition, within: .seconds(10), at: 100)
        fresh.record(ScenarioObservation(milliseconds: 1000, side: "subscriber", .stats(["videoGapMs": .number(20), "longestVideoGapMs": .number(1500)])))
        #expect(fresh.verdict(for: window, recording: nil) == .broken(seen: "the subscriber went 1.50s without video since the line started"))
    }

    @Test("fps above N for W: every stats event after the start decoded more than N frames; a stuttering second breaks it, one before the start does not")
    func framesPerSecondWindow() throws {
        var timeline = ScenarioTimeline()
        func stats(_ ms: Int64, fps: Double) {
            timeline.record(ScenarioObservation(milliseconds: ms, side: "subscriber", .stats(["fps": .number(fps), "videoGapMs": .number(30), "longestVideoGapMs": .number(300)])))
        }
        stats(1000, fps: 3)  // before the window
        let scenario = try ScenarioParser.parse("expect subscriber fps above 20 for 38s", source: "x")
        let expectation = try #require(scenario.expectations.first)
        #expect(expectation.waitsOut && expectation.within == .seconds(38))
        #expect(expectation.condition == .framesPerSecondDuring(above: 20, since: nil))
        let condition = timeline.begin(expectation.condition, within: expectation.within, at: 1500)
        #expect(timeline.verdict(for: condition, recording: nil) == .unmet(seen: "no subscriber stats since the line started"))
        stats(2000, fps: 30)
        stats(3000, fps: 21)
        #expect(timeline.verdict(for: condition, recording: nil) == .met)
        stats(4000, fps: 7.4)
        stats(5000, fps: 30)
        #expect(timeline.verdict(for: condition, recording: nil) == .broken(seen: "the subscriber decoded 7.4 fps at 4.00s"))
        #expect(timeline.metrics.longestGapAfterConverging != nil, "the window counts as one after converging in the report")
        for bad in ["expect subscriber fps above many for 3s", "expect publisher fps above 20 for 3s", "expect subscriber fps below 20 for 3s"] {
            #expect(throws: ScenarioParseError.self) { try ScenarioParser.parse(bad, source: "x") }
        }
    }

    @Test("no readable frame marker: the window cannot hold")
    func frozenWithoutMarkers() {
        var timeline = ScenarioTimeline()
        let condition = timeline.begin(.frozen(below: .seconds(1), since: nil), within: .seconds(5), at: 0)
        timeline.record(ScenarioObservation(milliseconds: 1000, side: "subscriber", .stats(["bitrate": .number(1)])))
        #expect(timeline.verdict(for: condition, recording: nil) == .unmet(seen: "no subscriber picture with a readable frame marker yet"))
        #expect(timeline.metrics.frozenAfterConverging == .zero)
    }

    @Test("under the cap: from the press to the first sent-rate sample that stayed at or below 90 % of it until the next press, for 5 s at least")
    func capConvergence() {
        var timeline = ScenarioTimeline()
        timeline.record(publisherStats(500, sent: 2_400_000))
        timeline.recordPress(OperatorCommand("link-cap 800k")!, typed: "link-cap 800k", line: 5, at: 1000)
        let underCapRun = (6...11).map { ($0 * 1000, 650_000) }
        for (ms, sent) in [(2000, 800_000), (3000, 790_000), (4000, 700_000), (5000, 730_000)] + underCapRun {
            timeline.record(publisherStats(Int64(ms), sent: sent, drops: ms / 1000))
        }
        timeline.recordPress(OperatorCommand("link-uncap")!, typed: "link-uncap", line: 9, at: 11_500)
        timeline.record(publisherStats(12_000, sent: 2_000_000, drops: 11))
        timeline.recordPress(OperatorCommand("handoff 300k")!, typed: "handoff 300k", line: 11, at: 13_000)
        timeline.record(publisherStats(14_000, sent: 600_000, drops: 13))
        timeline.recordPress(OperatorCommand("link-cap 1M")!, typed: "link-cap 1M", line: 13, at: 15_000)
        for ms in stride(from: 16_000, through: 19_000, by: 1000) { timeline.record(publisherStats(Int64(ms), sent: 500_000, drops: 13)) }
        let metrics = timeline.metrics
        #expect(metrics.capConvergence == [
            .init(capBitsPerSecond: 800_000, duration: .seconds(5)),
            .init(capBitsPerSecond: 300_000, duration: nil),
            // Under the cap for only 3 s before the run ended: not yet "stayed".
            .init(capBitsPerSecond: 1_000_000, duration: nil),
        ])
        #expect(metrics.congestionDrops == 13)
        #expect(metrics.frozenAfterConverging == nil)
    }

    @Test("the report gains its network columns when a row has network figures, and names every row's ABR mode")
    func reportColumns() {
        var off = ScenarioMetrics()
        off.longestVideoGap = .milliseconds(4120)
        off.capConvergence = [.init(capBitsPerSecond: 800_000, duration: nil)]
        off.frozenAfterConverging = .milliseconds(9350)
        off.congestionDrops = 812
        var throughput = ScenarioMetrics()
        throughput.longestVideoGap = .milliseconds(420)
        throughput.capConvergence = [.init(capBitsPerSecond: 800_000, duration: .milliseconds(6020))]
        throughput.frozenAfterConverging = .milliseconds(120)
        throughput.longestGapAfterConverging = .milliseconds(180)
        off.longestGapAfterConverging = .milliseconds(2310)
        let report = ScenarioReport(rows: [
            .init(scenario: "Weak signal", policy: .tapRepublish, abr: .off, outcome: .failed("x"), metrics: off, recordings: []),
            .init(scenario: "Weak signal", policy: .tapRepublish, abr: .throughput, outcome: .passed, metrics: throughput, recordings: []),
        ])
        #expect(report.showsNetwork)
        #expect(report.table.split(separator: "\n").map(String.init) == [
            "scenario     policy         abr         longest video gap  key → publishing  reconnects pub/sub  under cap (≤90%)  gap after converging  frozen after converging  congestion drops  recordings  result",
            "-----------  -------------  ----------  -----------------  ----------------  ------------------  ----------------  --------------------  -----------------------  ----------------  ----------  ------",
            "Weak signal  tap-republish  off         4.12s              -                 0/0                 800k never        2.31s                 9.35s                    812               -           FAILED",
            "Weak signal  tap-republish  throughput  0.42s              -                 0/0                 800k 6.02s        0.18s                 0.12s                    0                 -           passed",
        ])
        #expect(!ScenarioReport(rows: [.init(scenario: "x", policy: .tapRepublish, outcome: .passed, metrics: ScenarioMetrics(), recordings: [])]).showsNetwork)
        // Issue 28 (10): `--report` prints within 80 columns — here one block per run, pairs whole.
        let text = report.text(width: 80).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(text.allSatisfy { $0.count <= 80 }, "\(text)")
        #expect(text.first == "Weak signal — FAILED")
        #expect(text.contains("Weak signal — passed"))
        for pair in ["under cap (≤90%) 800k never", "frozen after converging 9.35s", "congestion drops 812", "abr throughput"] {
            #expect(text.contains { $0.contains(pair) }, "\(pair) whole on one line: \(text)")
        }
    }
}
