import OnAirScenario
import Testing

@Suite("scenario report")
struct ScenarioReportTests {
    @Test("the table lines the policies up, one row per scenario")
    func table() {
        var tap = ScenarioMetrics()
        tap.longestVideoGap = .milliseconds(3234)
        tap.backToPublishing = [.init(trigger: "tap", duration: .milliseconds(9))]
        tap.subscriberReconnectAttempts = 1
        var resume = ScenarioMetrics()
        resume.longestVideoGap = .milliseconds(2133)
        resume.backToPublishing = [.init(trigger: "decline", duration: .milliseconds(11))]
        let report = ScenarioReport(rows: [
            .init(scenario: "Testbed: decline, tap", policy: .tapRepublish, outcome: .passed, metrics: tap, recordings: []),
            .init(scenario: "Blog 2", policy: .resumeAppend, outcome: .failed("x"), metrics: resume, recordings: [
                RecordingSummary(name: "stream1", duration: .milliseconds(7210), tags: 216, largestJump: .milliseconds(34), goesBackwards: false),
            ]),
            .init(scenario: "Siri on nginx", policy: .tapRepublish, outcome: .skipped("drops notices"), metrics: ScenarioMetrics(), recordings: []),
        ])
        #expect(report.table.split(separator: "\n").map(String.init) == [
            "scenario               policy         abr  longest video gap  key → publishing  reconnects pub/sub  recordings         result",
            "---------------------  -------------  ---  -----------------  ----------------  ------------------  -----------------  -------",
            "Testbed: decline, tap  tap-republish  off  3.23s              tap 0.01s         0/1                 -                  passed",
            "Blog 2                 resume-append  off  2.13s              decline 0.01s     0/0                 stream1.flv 7.21s  FAILED",
            "Siri on nginx          tap-republish  off  -                  -                 0/0                 -                  skipped",
        ])
    }

    @Test("durations read in seconds with two decimals, rounded")
    func secondsText() {
        #expect(Duration.milliseconds(0).secondsText == "0.00s")
        #expect(Duration.milliseconds(5).secondsText == "0.01s")
        #expect(Duration.milliseconds(1999).secondsText == "2.00s")
        #expect(Duration.milliseconds(61_234).secondsText == "61.23s")
        #expect(Duration.seconds(3).scenarioText == "3s")
        #expect(Duration.milliseconds(1500).scenarioText == "1.5s")
        #expect(Duration.milliseconds(250).scenarioText == "250ms")
    }
}
