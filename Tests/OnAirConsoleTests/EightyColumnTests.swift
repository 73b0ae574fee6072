import OnAirConsole
import OnAirCore
import Testing

/// Issue 28 (3, 4): every figure and reason whole at 80×24 — the demo's stacked panes, where the preview
/// stands beside the info rows — laid out by `RowFit`, and the sent rate never above the link's cap.
@Suite("every figure whole at 80×24")
struct EightyColumnTests {
    /// The figures the issue found cut, all at once: ABR under a cap with a handoff's path and delay, a
    /// send stall's countdown, a big congestion, the subscriber's paused render beside its link.
    static func screen() -> ConsoleScreen {
        var publisher = ConsoleFixtures.publisher(.stalled)
        publisher.sendStall = SendStall(
            since: SessionTime(milliseconds: ConsoleFixtures.now.milliseconds - 5_900),
            tearDownAt: SessionTime(milliseconds: ConsoleFixtures.now.milliseconds + 9_200))
        var telemetry = ConsoleFixtures.telemetry()
        telemetry.bitrate = 883_000
        telemetry.encoderBitrate = 931_000
        telemetry.congestion = 1
        telemetry.queueDepth = 1234
        telemetry.droppedFrames = 98765
        telemetry.abrTarget = AdaptiveBitrateTarget(videoBitrate: 2_500_000, framesPerSecond: 30)
        telemetry.link = LinkImpairmentState(capBitsPerSecond: 800_000, delay: .milliseconds(150), path: 1)
        var subscriber = ConsoleFixtures.subscriber()
        subscriber.renderActive = false
        var subscriberTelemetry = ConsoleFixtures.telemetry()
        subscriberTelemetry.link = LinkImpairmentState(capBitsPerSecond: 800_000, delay: .milliseconds(150), path: 1)
        return ConsoleScreen(
            publisher: publisher, publisherTelemetry: telemetry, subscriber: subscriber, subscriberTelemetry: subscriberTelemetry,
            ui: ConsoleUIState(focus: .publisher), now: ConsoleFixtures.now)
    }

    @Test("ABR under a cap, a send stall, congestion, a paused render and the link: nothing cut at 80×24")
    func wholeAtEighty() {
        let buffer = Self.screen().render(width: 80, height: 24, theme: .builtInDefault)
        let text = buffer.textLines().joined(separator: "\n")
        #expect(!text.contains("…"), "\(text)")
        #expect(text.contains("none sent 5.9 s, retry in 9.2 s"), "\(text)")
        #expect(text.contains("cap 800k"), "\(text)")
        #expect(text.contains("link 800k 150ms path 1"), "\(text)")
        #expect(text.contains("cong 100%"), "\(text)")
        #expect(text.contains("drop 98765"), "\(text)")
        #expect(text.contains("PAUSED: not decoded"), "\(text)")
    }

    @Test("sent is what the link carried: never shown above the cap, with ABR or without")
    func sentNeverAboveTheCap() {
        var telemetry = ConsoleFixtures.telemetry()
        telemetry.bitrate = 883_000
        telemetry.link = LinkImpairmentState(capBitsPerSecond: 800_000)
        telemetry.abrTarget = AdaptiveBitrateTarget(videoBitrate: 931_000, framesPerSecond: 30)
        #expect(PublisherDashboard.bitrateFields(telemetry)[0].long == "abr 931k → sent 800k / cap 800k")
        telemetry.abrTarget = nil
        telemetry.bitrate = 449_000
        telemetry.link = LinkImpairmentState(capBitsPerSecond: 300_000)
        #expect(PublisherDashboard.sentBitrate(telemetry) == 300_000)
        #expect(PublisherDashboard.bitrateFields(telemetry)[0].long == "300 kb/s")
        telemetry.link = nil
        #expect(PublisherDashboard.sentBitrate(telemetry) == 449_000)
    }

    @Test("the rule: two spaces, one, short words, then the least important field goes whole")
    func rule() {
        let fields = [
            RowField("30.0", importance: 5), RowField("dropped 3", short: "drop 3", importance: 3),
            RowField("queue 2", short: "q 2", importance: 2), RowField("congestion 12%", short: "cong 12%", importance: 4),
        ]
        #expect(RowFit.forms(fields) == [
            "30.0  dropped 3  queue 2  congestion 12%", "30.0 dropped 3 queue 2 congestion 12%", "30.0 drop 3 q 2 cong 12%",
            "30.0 drop 3 cong 12%", "30.0 cong 12%", "30.0",
        ])
        #expect(RowFit.text(fields, width: 22) == "30.0 drop 3 cong 12%")
        #expect(RowFit.text(fields, width: 3) == "30.0", "the last form is the most important field, whole")
    }

    /// Issue 28 (5): IDLE with "queue 1 congestion 1%", WAITING FOR PUBLISHER with "audio -15 dB".
    @Test("no stale figures: an idle publisher shows no send queue, a subscriber not playing no audio level")
    func noStaleFigures() {
        var telemetry = ConsoleFixtures.telemetry()
        telemetry.queueDepth = 1
        telemetry.congestion = 0.01
        telemetry.audioLevelDBFS = -15
        var subscriber = ConsoleFixtures.subscriber()
        subscriber.connection = .waitingForPublisher
        let screen = ConsoleScreen(
            publisher: ConsoleFixtures.publisher(.idle), publisherTelemetry: telemetry, subscriber: subscriber, subscriberTelemetry: telemetry,
            ui: ConsoleUIState(focus: .publisher), now: ConsoleFixtures.now)
        let lines = screen.render(width: 80, height: 24, theme: .builtInDefault).textLines()
        let publisherPane = lines.prefix(11).joined(separator: "\n")
        let subscriberPane = lines.dropFirst(11).joined(separator: "\n")
        #expect(!publisherPane.contains("queue 1") && !publisherPane.contains("congestion"), "\(publisherPane)")
        #expect(!subscriberPane.contains("-15 dB") && subscriberPane.contains("audio -- dB"), "\(subscriberPane)")
    }

    @Test("the handoff's reason stays whole on an 80-column event log line")
    func handoffLineFits() {
        var publisher = ConsoleFixtures.publisher(.reconnecting(attempt: 1, maxAttempts: 20))
        publisher.log.append(ConsoleFixtures.now, .error, "connection lost: the link stage reset it on purpose (handoff)")
        let screen = ConsoleScreen(publisher: publisher, publisherTelemetry: ConsoleFixtures.telemetry(), now: ConsoleFixtures.now)
        let text = screen.render(width: 80, height: 24, theme: .builtInDefault).text
        #expect(text.contains("reset it on purpose (handoff)"), "\(text)")
    }

    /// Issue 28 (6): `p` during a call, then `d`: three toasts covered the publisher's badge and its
    /// url/bitrate/fps rows. With five toasts on both panes, every info row reads as it does without any,
    /// at 80×24 (stacked panes) and 160×48; at most three toasts show, the newest.
    @Test("toasts cover neither the badge nor the url, bitrate and fps rows, and at most three show", arguments: [(80, 24), (160, 48)])
    func toastsLeaveTheFigures(size: (width: Int, height: Int)) {
        let texts = ["policy resume-append takes effect when the interruption ends", "Publish Background", "Tap to Re-Publish!",
                     "policy resume-append now in force", "Publisher Foreground"]
        func lines(toasts: Bool) -> [String] {
            var publisher = ConsoleFixtures.publisher(.awaitingTap)
            var subscriber = ConsoleFixtures.subscriber()
            if toasts {
                for text in texts {
                    publisher.toasts.post(Toast(text: text, postedAt: ConsoleFixtures.now))
                    subscriber.toasts.post(Toast(text: text, postedAt: ConsoleFixtures.now))
                }
            }
            let screen = ConsoleScreen(publisher: publisher, publisherTelemetry: ConsoleFixtures.telemetry(), subscriber: subscriber,
                                       subscriberTelemetry: ConsoleFixtures.telemetry(), ui: ConsoleUIState(focus: .publisher), now: ConsoleFixtures.now)
            return screen.render(width: size.width, height: size.height, theme: .builtInDefault).textLines()
        }
        let bare = lines(toasts: false)
        let covered = lines(toasts: true)
        let screen = covered.joined(separator: "\n")
        // Each pane's info rows: the badge row and the five below it (flags, policy, url, bitrate, fps).
        let badgeRows = bare.indices.filter { bare[$0].contains(" AWAITING TAP ") || bare[$0].contains(" PLAYING ") }
        // Stacked at 80×24 (two badge rows), side by side at 160×48 (one).
        #expect(badgeRows.count == (size.width < 160 ? 2 : 1), "\(bare.joined(separator: "\n"))")
        for badge in badgeRows {
            for row in badge..<(badge + DashboardLayout.infoRows) {
                #expect(covered[row] == bare[row], "row \(row) covered:\n\(screen)")
            }
        }
        #expect(bare.contains { $0.contains("url ") } && bare.contains { $0.contains("bitrate ") } && bare.contains { $0.contains("fps ") })
        // Stacked panes: a toast's row holds the toast alone, no cut log line beside it.
        if size.width < 160 {
            for line in covered where texts.contains(where: line.contains) {
                let rest = texts.reduce(line) { $0.replacingOccurrences(of: $1, with: "") }
                #expect(rest.allSatisfy { " ┃│╭╮╰╯─".contains($0) }, "a log line shows beside a toast: \(line)")
            }
        }
        for (index, text) in texts.enumerated() {
            let shown = covered.reduce(0) { $0 + $1.components(separatedBy: text).count - 1 }
            #expect(shown == (index < texts.count - ToastStack.maxShown ? 0 : 2), "\(text) shown \(shown) times:\n\(screen)")
        }
    }
}
