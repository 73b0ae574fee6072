import Foundation
import OnAirConsole
import OnAirCore
import Testing

/// Issue 17's conventions on whole screens: ASCII for a locale that is not UTF-8, reasons whole at 80×24,
/// the scrolled and full-screen event log, colourless themes.
@Suite("Convention snapshots")
struct ConventionSnapshotTests {
    @Test("ASCII fallback (LANG=C): the demo at 80×24 has no character outside ASCII, in colour and monochrome")
    func ascii() {
        for monochrome in [false, true] {
            var screen = ConsoleFixtures.demo()
            screen.publisher?.pauseVideo = true
            let buffer = screen.render(width: 80, height: 24, theme: .builtInDefault).asciiOnly(monochrome: monochrome)
            let foreign = buffer.text.unicodeScalars.filter { !$0.isASCII }
            #expect(foreign.isEmpty, "non-ASCII: \(String(String.UnicodeScalarView(foreign.prefix(10))))")
            #expect(buffer.text.contains("+-> Publisher") || buffer.text.contains("+=> Publisher"), "\(buffer.text)")
            #expect(buffer.text.contains("* pauseVideo") && buffer.text.contains("- pauseAudio"), "flags tell on from off without colour")
            let previewCells = (0..<buffer.height).flatMap { y in (0..<buffer.width).map { buffer[$0, y] } }
                .filter { if case .rgb = $0.style.background { return true } else { return false } }
            #expect(monochrome ? previewCells.isEmpty : !previewCells.isEmpty, "the preview is coloured spaces only in colour")
            Snapshot.assert(Snapshot.screen(buffer), named: "ascii-\(monochrome ? "monochrome" : "colour")-80x24")
        }
    }

    @Test("80×24: a refused key's reason gets its own status line, whole, and the footer keeps every key")
    func noticeWhole() {
        var screen = ConsoleFixtures.demo()
        let reason = "d: nothing to decline: no call or Siri is up (the app is active)"
        screen.ui.notice = ConsoleUIState.Notice(text: reason, postedAt: ConsoleFixtures.now)
        let buffer = screen.render(width: 80, height: 24, theme: .builtInDefault)
        #expect(buffer.text.contains(reason))
        #expect(!buffer.text.contains("…"))
        #expect(buffer.text.contains("Tab pane") && buffer.text.contains("? help") && buffer.text.contains("q quit"))
        Snapshot.assert(Snapshot.screen(buffer), named: "notice-whole-80x24")
    }

    @Test("80×24: countdowns and long reasons on the badge row are not cut by the preview")
    func countdownWhole() {
        var screen = ConsoleFixtures.demo()
        var publisher = ConsoleFixtures.publisher(.reconnecting(attempt: 3, maxAttempts: 20))
        publisher.timerDeadlines[.reconnect] = SessionTime(milliseconds: ConsoleFixtures.now.milliseconds + 1_200)
        screen.publisher = publisher
        screen.subscriber?.connection = .reconnecting(at: SessionTime(milliseconds: ConsoleFixtures.now.milliseconds + 8_100))
        screen.subscriber?.reconnectAttempts = 4
        let text = screen.render(width: 80, height: 24, theme: .builtInDefault).text
        #expect(text.contains("retry in 1.2 s"), "\(text)")
        #expect(text.contains("retry in 8.1 s (attempt 5)"), "\(text)")
        #expect(!text.contains("…"), "\(text)")
    }

    @Test("l: the focused pane's whole log on the screen; PgUp scrolls back and says how many are newer")
    func fullLog() {
        var screen = ConsoleFixtures.demo()
        var publisher = ConsoleFixtures.publisher()
        for index in 0..<60 { publisher.log.append(SessionTime(milliseconds: Int64(index) * 100), .engine, "event number \(index)") }
        screen.publisher = publisher
        screen.ui.showFullLog = true
        let newest = screen.render(width: 80, height: 24, theme: .builtInDefault)
        #expect(newest.text.contains("event number 59"))
        #expect(newest.text.contains("Publisher event log"))
        var ui = screen.ui
        _ = ui.handle(.pageUp, publisher: publisher, subscriber: screen.subscriber, now: ConsoleFixtures.now)
        #expect(ui.logScroll > 0)
        screen.ui = ui
        let scrolled = screen.render(width: 80, height: 24, theme: .builtInDefault)
        #expect(!scrolled.text.contains("event number 59"))
        #expect(scrolled.text.contains("\(ui.logScroll) newer (PgDn)"))
        Snapshot.assert(Snapshot.screen(scrolled), named: "log-full-scrolled-80x24")
        _ = ui.handle(.pageDown, publisher: publisher, subscriber: screen.subscriber, now: ConsoleFixtures.now)
        #expect(ui.logScroll == 0)

        // A log that fits on the screen has nothing to scroll back to: PgUp is refused, with the reason.
        var short = ConsoleFixtures.publisher()
        short.log = EventLog()
        for index in 0..<8 { short.log.append(SessionTime(milliseconds: Int64(index)), .engine, "short \(index)") }
        _ = ui.handle(.pageUp, publisher: short, subscriber: screen.subscriber, now: ConsoleFixtures.now)
        #expect(ui.logScroll == 0)
        #expect(ui.notice?.text == "PgUp: the whole log is on screen")
    }

    /// Issue 28 (7): `l`, PgUp, `l` left "v 2 newer (PgDn)" on the pane and new lines hidden.
    @Test("leaving or entering the full log follows the newest line again")
    func logFollowsAfterFullLog() {
        var publisher = ConsoleFixtures.publisher()
        for index in 0..<60 { publisher.log.append(SessionTime(milliseconds: Int64(index) * 100), .engine, "event number \(index)") }
        var screen = ConsoleFixtures.demo()
        screen.publisher = publisher
        var ui = screen.ui
        for key in [ConsoleKey.character("l"), .pageUp, .character("l")] {
            _ = ui.handle(key, publisher: publisher, subscriber: screen.subscriber, now: ConsoleFixtures.now)
        }
        #expect(ui.logScroll == 0)
        publisher.log.append(SessionTime(milliseconds: 7000), .engine, "a new line")
        screen.publisher = publisher
        screen.ui = ui
        let text = screen.render(width: 80, height: 24, theme: .builtInDefault).text
        #expect(text.contains("a new line"), "\(text)")
        #expect(!text.contains("newer (PgDn)"), "\(text)")
    }

    @Test("after x the footer offers r start; PAUSED A+V when both are paused")
    func startAgainAndBadge() {
        var screen = ConsoleFixtures.demo()
        screen.publisher = ConsoleFixtures.publisher(.idle)
        let footer = screen.render(width: 80, height: 24, theme: .builtInDefault).textLines().suffix(2).joined(separator: "\n")
        #expect(footer.contains("r start"), "\(footer)")
        var paused = ConsoleFixtures.publisher(.pausedVideo)
        paused.pauseVideo = true
        paused.pauseAudio = true
        screen.publisher = paused
        #expect(screen.render(width: 80, height: 24, theme: .builtInDefault).text.contains(" PAUSED A+V "))
        #expect(paused.badge == "PAUSED A+V")
    }

    @Test("the monochrome theme names no colour; the default does")
    func colourlessTheme() throws {
        #expect(try !ThemeFiles.load("monochrome").theme.drawsColour)
        #expect(Theme.builtInDefault.drawsColour)
    }

    @Test("the event log shows a key once: `key  accept`, not `key  key accept`")
    func keyTagOnce() {
        let view = EventLogView(entries: [EventLogEntry(time: SessionTime(milliseconds: 1), source: .key, text: "key accept")])
        var buffer = CellBuffer(width: 40, height: 1)
        view.render(in: buffer.area, into: &buffer, theme: .builtInDefault)
        #expect(buffer.text.contains("key  accept"))
        #expect(!buffer.text.contains("key key"))
    }

    @Test("a key-like stream name is *** on screen: pane titles, the full-screen log title")
    func redactedOnScreen() {
        let name = "live_123456789_AbCdEfGh"
        var screen = ConsoleFixtures.demo()
        screen.publisher?.streamName = name
        screen.subscriber?.streamName = name
        #expect(!screen.render(width: 160, height: 48, theme: .builtInDefault).text.contains("live_123"))
        screen.ui.showFullLog = true
        let full = screen.render(width: 80, height: 24, theme: .builtInDefault).text
        #expect(full.contains("event log · ***"))
        #expect(!full.contains("live_123"))
    }
}
