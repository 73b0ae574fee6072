import Foundation
@testable import OnAirConsole
import OnAirCore
import Testing

@Suite("Widgets")
struct WidgetTests {
    let theme = Theme.builtInDefault

    func render(_ widget: some Widget, width: Int, height: Int = 1) -> CellBuffer {
        var buffer = CellBuffer(width: width, height: height)
        widget.render(in: buffer.area, into: &buffer, theme: theme)
        return buffer
    }

    @Test("a badge shows the status text with the role's colours")
    func badge() {
        let buffer = render(StatusBadge(.reconnecting(attempt: 2, maxAttempts: 5)), width: 20)
        #expect(buffer.text == " RECONNECTING 2/5")
        #expect(buffer[1, 0].style == theme[.reconnectingBadge])
        #expect(StatusBadge.role(for: .publishing) == .liveBadge)
        #expect(StatusBadge.role(for: .error("x")) == .errorBadge)
        #expect(render(StatusBadge(.pausedVideo), width: 6).text == " PAUS…")
    }

    @Test("flags read without colour: ● set, ○ clear")
    func flags() {
        #expect(render(FlagIndicator("pauseVideo", isOn: true), width: 20).text == "● pauseVideo")
        #expect(render(FlagIndicator("pauseVideo", isOn: false), width: 20).text == "○ pauseVideo")
        #expect(render(FlagIndicator("pauseVideo", isOn: true), width: 20)[0, 0].style == theme[.flagOn])
    }

    @Test("a sparkline scales to its largest sample, newest right, zero as a gap")
    func sparkline() {
        let spark = Sparkline(samples: [0, 1, 2, 3, 4, 5, 6, 7, 8])
        #expect(String(spark.characters(width: 9)) == " ▁▂▃▄▅▆▇█")
        #expect(String(spark.characters(width: 3)) == "▆▇█")
        #expect(render(Sparkline(samples: [8, 8]), width: 5).textLines(trimmingTrailingSpaces: false) == ["   ██"])
        #expect(String(Sparkline(samples: [5, 10], maximum: 40).characters(width: 2)) == "▁▂")
    }

    @Test("the event log shows the newest lines that fit, with millisecond stamps and source tags")
    func eventLog() {
        var log = EventLog()
        log.append(SessionTime(milliseconds: 1_001), .key, "c: incoming call")
        log.append(SessionTime(milliseconds: 1_002), .lifecycle, "willResignActive")
        log.append(SessionTime(milliseconds: 3_723_004), .rtmp, "NetStream.Publish.Start")
        let buffer = render(EventLogView(log), width: 50, height: 2)
        #expect(buffer.textLines() == ["00:01.002 life willResignActive", "1:02:03.004 rtmp NetStream.Publish.Start"])
        #expect(buffer[15, 0].style == theme[.logLifecycle])
        #expect(buffer[0, 0].style == theme[.logTime])
        #expect(render(EventLogView(EventLog()), width: 20).text == "(no events yet)")
    }

    @Test("toasts are centred, stacked oldest on top, and gone after their lifetime")
    func toasts() {
        var queue = ToastQueue()
        queue.post(Toast(text: "Publish Background", postedAt: SessionTime(milliseconds: 0)))
        queue.post(Toast(text: "Publisher Foreground", postedAt: SessionTime(milliseconds: 1_000)))
        let both = render(ToastStack(queue, now: SessionTime(milliseconds: 2_000)), width: 40, height: 8)
        let lines = both.textLines()
        let first = lines.firstIndex { $0.contains("Publish Background") }
        let second = lines.firstIndex { $0.contains("Publisher Foreground") }
        #expect(first != nil && second != nil && first! < second!)
        #expect(lines[1] == String(repeating: " ", count: 8) + "╭" + String(repeating: "─", count: 22) + "╮")
        let later = render(ToastStack(queue, now: SessionTime(milliseconds: 3_500)), width: 40, height: 8)
        #expect(!later.text.contains("Publish Background") && later.text.contains("Publisher Foreground"))
        let expired = render(ToastStack(queue, now: SessionTime(milliseconds: 4_000)), width: 40, height: 8).textLines()
        #expect(expired.allSatisfy { $0.isEmpty })
        let short = render(ToastStack(queue, now: SessionTime(milliseconds: 2_000)), width: 40, height: 1)
        #expect(short.text.contains("Publisher Foreground") && !short.text.contains("╭"))
    }

    @Test("the preview draws 2×2 pixels per cell in quadrant blocks, light pixels as foreground, dark as background")
    func preview() {
        // 4×2 pixels → 2 cells: a white diagonal (▚) on black, then white over black (▀).
        let image = PreviewImage(width: 4, height: 2, rgb: [
            255, 255, 255, 0, 0, 0, 255, 255, 255, 255, 255, 255,
            0, 0, 0, 255, 255, 255, 0, 0, 0, 0, 0, 0,
        ])
        let buffer = render(PreviewView(image), width: 2, height: 1)
        #expect(buffer.text == "▚▀")
        #expect(buffer[0, 0].style.foreground == .rgb(255, 255, 255))
        #expect(buffer[0, 0].style.background == .rgb(0, 0, 0))
        #expect(buffer[1, 0].style == buffer[0, 0].style, "one colour pair for the run: no colour change on the wire")
        #expect(render(PreviewView(nil, placeholder: "off"), width: 9).text == "   off")
        let fitted = PreviewView.fittedSize(imageWidth: 16, imageHeight: 9, in: Rect(x: 0, y: 0, width: 80, height: 10))
        #expect(fitted.rows == 10 && fitted.columns == 35)
    }

    @Test("block digits: 2×3 cells a digit in quadrants of the 3×5 font, a colon one column")
    func blockDigits() {
        #expect(BlockDigits.size(of: "00:06").columns == 9 && BlockDigits.size(of: "00:06").rows == 3)
        #expect(BlockDigits.size(of: "0384", scale: 2).columns == 16 && BlockDigits.size(of: "0384", scale: 2).rows == 5)
        let eight = render(BlockDigits("8"), width: 2, height: 3)
        // Pixels: a 1-pixel gap, then 111 / 101 / 111 / 101 / 111 and an empty sixth row.
        #expect(eight.text == "▐▜\n▐▜\n▝▀", "\(eight.text)")
        let colon = render(BlockDigits("1:2"), width: 5, height: 3)
        #expect(colon.text == "▗▌▗▝▜\n ▌▗▐▀\n▝▀ ▝▀", "\(colon.text)")
    }

    @Test("the timecode stands beside the picture, both centred; without room it is left out")
    func previewTimecode() {
        let image = PreviewImage(width: 16, height: 9, rgb: [UInt8](repeating: 0, count: 16 * 9 * 3))
        let area = Rect(x: 0, y: 0, width: 26, height: 5)
        let place = PreviewView.placement(image: image, timecode: "00:06", in: area)
        #expect(place.picture.width == 17 && place.picture.height == 5)
        #expect(place.timecode == Rect(x: 17, y: 1, width: 9, height: 3))
        let buffer = render(PreviewView(image, timecode: "00:06"), width: 26, height: 5)
        #expect(buffer.text.split(separator: "\n", omittingEmptySubsequences: false)[1].hasSuffix("▐▜▐▜▗▐▜▐▀"))
        let narrow = PreviewView.placement(image: image, timecode: "00:06", in: Rect(x: 0, y: 0, width: 14, height: 5))
        #expect(narrow.timecode == nil && narrow.picture.width == 14)
    }

    @Test("the footer pins help and quit to the right and drops keys that do not fit")
    func footer() {
        let map = KeyMap.standard
        let context = KeyContext(focus: .publisher, paneCount: 2, publisher: ConsoleFixtures.publisher(.publishing), subscriber: nil)
        let buffer = render(Footer(bindings: map.available(in: context)), width: 50)
        let text = buffer.text
        #expect(text.hasSuffix("r reconnect  Tab pane  ? help  q quit"))
        #expect(text.hasPrefix(" c call"))
        #expect(!text.contains("decline"))
        let withNotice = render(Footer(bindings: map.available(in: context), notice: "d: nothing to decline"), width: 80).text
        #expect(withNotice.hasPrefix(" d: nothing to decline"))
    }

    @Test("a panel's focus shows as a heavy border and a ▶ marker")
    func panel() {
        let focused = render(Panel(title: "Publisher", isFocused: true), width: 20, height: 3)
        #expect(focused.textLines()[0] == "┏━▶ Publisher ━━━━━┓")
        let plain = render(Panel(title: "Subscriber"), width: 20, height: 3)
        #expect(plain.textLines() == ["┌─ Subscriber ─────┐", "│                  │", "└──────────────────┘"])
    }

    @Test("the quit confirmation asks the seeds' question")
    func confirm() {
        let buffer = render(ConfirmDialog(ConsoleScreen.quitQuestion), width: 60, height: 5)
        #expect(buffer.textLines()[2].contains("Stop broadcasting and quit? y/n"))
    }

    @Test("number formats are fixed and locale-free")
    func formats() {
        #expect(ConsoleFormat.bitrate(2_512_000) == "2.51 Mb/s")
        #expect(ConsoleFormat.bitrate(128_000) == "128 kb/s")
        #expect(ConsoleFormat.bitrate(-5) == "0 b/s")
        #expect(ConsoleFormat.clock(.milliseconds(3_723_999)) == "01:02:03")
        #expect(ConsoleFormat.seconds(1_201) == "1.3 s")
        #expect(ConsoleFormat.seconds(0) == "0.0 s")
        #expect(ConsoleFormat.percent(0.125) == "13%")
        #expect(ConsoleFormat.decimal(29.97, places: 1) == "30.0")
        #expect(ConsoleFormat.decimal(.nan, places: 1) == "–")
    }
}

@Suite("Theme swatch")
struct ThemeSwatchTests {
    @Test("plain text has no escapes; ANSI colours each piece and resets after it")
    func swatch() {
        let plain = ThemeSwatch(.builtInDefault).line(ansi: false)
        #expect(plain.hasPrefix(" PUBLISHING  "))
        #expect(plain.contains(" Tap to Re-Publish! "))
        #expect(!plain.contains("\u{1B}"))
        let ansi = ThemeSwatch(.builtInDefault).line(ansi: true)
        #expect(ansi.hasPrefix("\u{1B}[0;1;97;41m PUBLISHING \u{1B}[0m"))
        let stripped = ansi.replacingOccurrences(of: "\u{1B}\\[[0-9;]*m", with: "", options: .regularExpression)
        #expect(stripped == plain)
        #expect(ansi.hasSuffix("ERR\u{1B}[0m"))
    }

    @Test("SGR codes: attributes, 8/16 colours, 256-colour indices, RGB mapped to the palette")
    func sgr() {
        #expect(ThemeSwatch.sgr(.plain) == "\u{1B}[0m")
        #expect(ThemeSwatch.sgr(Style(foreground: .ansi(2), attributes: [.underline, .reverse])) == "\u{1B}[0;4;7;32m")
        #expect(ThemeSwatch.sgr(Style(foreground: .indexed(114), background: .rgb(255, 0, 0))) == "\u{1B}[0;38;5;114;48;5;196m")
    }
}

@Suite("Dashboards")
struct DashboardTests {
    @Test("the publisher counts down to its next reconnect attempt, and to a suspended session's drop")
    func publisherCountdowns() {
        var state = ConsoleFixtures.publisher(.reconnecting(attempt: 2, maxAttempts: 20))
        state.timerDeadlines[.reconnect] = SessionTime(milliseconds: ConsoleFixtures.now.milliseconds + 2_710)
        var buffer = CellBuffer(width: 100, height: 20)
        PublisherDashboard.render(state: state, telemetry: ConsoleFixtures.telemetry(), now: ConsoleFixtures.now, in: buffer.area, into: &buffer, theme: .builtInDefault)
        #expect(buffer.text.contains(" RECONNECTING 2/20  app \(state.lifecycle.label)  retry in 2.8 s"), "\(buffer.text)")

        state = ConsoleFixtures.publisher(.interrupted)
        state.timerDeadlines[.suspension] = SessionTime(milliseconds: ConsoleFixtures.now.milliseconds + 4_000)
        buffer = CellBuffer(width: 100, height: 20)
        PublisherDashboard.render(state: state, telemetry: ConsoleFixtures.telemetry(), now: ConsoleFixtures.now, in: buffer.area, into: &buffer, theme: .builtInDefault)
        #expect(buffer.text.contains("drops in 4.0 s"), "\(buffer.text)")

        state.timerDeadlines = [:]
        #expect(PublisherDashboard(state: state, telemetry: ConsoleFixtures.telemetry(), now: ConsoleFixtures.now).countdown == nil)
    }

    @Test("the publisher shows the link's state and cap, and with ABR target vs sent vs cap")
    func publisherLinkAndAdaptiveBitrate() {
        let state = ConsoleFixtures.publisher(.stalled)
        var telemetry = ConsoleFixtures.telemetry()
        telemetry.link = LinkImpairmentState(isUp: false)
        var buffer = CellBuffer(width: 120, height: 20)
        PublisherDashboard.render(state: state, telemetry: telemetry, now: ConsoleFixtures.now, in: buffer.area, into: &buffer, theme: .builtInDefault)
        #expect(buffer.text.contains("type live   link DOWN"), "\(buffer.text)")

        telemetry.link = LinkImpairmentState(capBitsPerSecond: 800_000, delay: .milliseconds(150))
        telemetry.bitrate = 790_400
        telemetry.abrTarget = AdaptiveBitrateTarget(videoBitrate: 1_234_000, framesPerSecond: 30)
        buffer = CellBuffer(width: 120, height: 20)
        PublisherDashboard.render(state: state, telemetry: telemetry, now: ConsoleFixtures.now, in: buffer.area, into: &buffer, theme: .builtInDefault)
        #expect(buffer.text.contains("link 800k 150ms"), "\(buffer.text)")
        #expect(buffer.text.contains("abr 1.2M → sent 790k / cap 800k"), "\(buffer.text)")

        telemetry.link = nil
        telemetry.abrTarget = nil
        #expect(PublisherDashboard.linkText(telemetry).isEmpty, "no stage, no link words")
    }

    @Test("the subscriber shows the reconnect countdown, the disconnected flag and a paused render")
    func subscriberReconnecting() {
        var state = ConsoleFixtures.subscriber()
        state.connection = .reconnecting(at: SessionTime(milliseconds: ConsoleFixtures.now.milliseconds + 1_250))
        state.publisherIsInBackground = true
        state.publisherIsDisconnected = true
        state.reconnectAttempts = 2
        state.renderActive = false
        var buffer = CellBuffer(width: 100, height: 20)
        SubscriberDashboard.render(state: state, telemetry: ConsoleFixtures.telemetry(), now: ConsoleFixtures.now, in: buffer.area, into: &buffer, theme: .builtInDefault)
        let text = buffer.text
        #expect(text.contains(" RECONNECTING  app ACTIVE  retry in 1.3 s (attempt 3)"))
        #expect(text.contains("● publisherIsInBackground  ● publisherIsDisconnected"))
        #expect(text.contains("PAUSED (pauseRender"))
        #expect(text.contains("render paused (pauseRender)"))
        #expect(!text.contains("▀"))
    }

    @Test("where no picture will come the preview says why, not 'no frame yet'", arguments: [
        (StreamTelemetry.PictureAbsence?.none, "decoded video: no frame yet"),
        (.audioOnly, "audio only: the stream announces no video"),
        (.videoNotDecoded, "no picture: the video is not H.264 (see the events)"),
    ])
    func pictureAbsence(absence: StreamTelemetry.PictureAbsence?, text: String) {
        var telemetry = ConsoleFixtures.telemetry(preview: false)
        telemetry.pictureAbsence = absence
        var buffer = CellBuffer(width: 120, height: 24)
        SubscriberDashboard.render(state: ConsoleFixtures.subscriber(), telemetry: telemetry, now: ConsoleFixtures.now,
                                   in: buffer.area, into: &buffer, theme: .builtInDefault)
        #expect(buffer.text.contains(text), "\(buffer.text)")
        if absence != nil { #expect(!buffer.text.contains("no frame yet")) }
    }

    @Test("the publisher's timer counts time on air; an error shows its message")
    func publisherTimerAndError() {
        var state = ConsoleFixtures.publisher(.error("connection refused"))
        state.onAirSince = SessionTime(milliseconds: 0)
        let dashboard = PublisherDashboard(state: state, telemetry: .none, now: SessionTime(milliseconds: 3_723_000))
        #expect(dashboard.sessionTimer == "01:02:03")
        var buffer = CellBuffer(width: 80, height: 12)
        dashboard.render(in: buffer.area, into: &buffer, theme: .builtInDefault)
        #expect(buffer.textLines()[1].contains(" ERROR  connection refused"))
        #expect(PublisherDashboard(state: ConsoleFixtures.publisher(.idle), telemetry: .none, now: .zero).sessionTimer == "--:--:--")
    }

    @Test("a long error reason is wrapped over the rows below the badge, never cut, and names the retry key")
    func longErrorWraps() {
        let reason = "cannot connect to 127.0.0.1:1 (connection refused): is the server running and listening on that port? Start one with onair serve"
        let dashboard = PublisherDashboard(state: ConsoleFixtures.publisher(.error(reason)), telemetry: .none, now: .zero, showPreview: false)
        var buffer = CellBuffer(width: 60, height: 12)
        dashboard.render(in: buffer.area, into: &buffer, theme: .builtInDefault)
        let shown = buffer.textLines().joined(separator: " ").split(separator: " ").filter { !$0.contains("│") }.joined(separator: " ")
        for word in (reason + " (r retries)").split(separator: " ") {
            #expect(shown.contains(word), "\(word)")
        }
        #expect(!buffer.textLines()[1...3].joined().contains("…"))
    }

    @Test("the preview toggle removes the picture and gives its rows to the log")
    func previewToggle() {
        var screen = ConsoleScreen(publisher: ConsoleFixtures.publisher(), publisherTelemetry: ConsoleFixtures.telemetry(), now: ConsoleFixtures.now)
        let with = screen.render(width: 80, height: 24, theme: .builtInDefault).text
        screen.ui.showPreview = false
        let without = screen.render(width: 80, height: 24, theme: .builtInDefault).text
        #expect(with.contains("▀") && !without.contains("▀"))
        #expect(without.contains("00:12.000 rtmp NetStream.Publish.Start") && !with.contains("00:12.000 rtmp"))
    }
}

/// The subscriber's fps row keeps its figures whole at any width: `queue` goes first, the frame number last.
@Suite("subscriber fps row")
struct SubscriberFrameRowTests {
    @Test("the row fits: full when there is room, shorter forms at 80 columns, the frame number always whole")
    func fits() {
        var telemetry = StreamTelemetry(framesPerSecond: 29.9, droppedFrames: 3, queueDepth: 1)
        telemetry.glassToGlass = StreamTelemetry.GlassToGlass(p50Milliseconds: 10, p99Milliseconds: 23, frameNumber: 38_412)
        #expect(SubscriberDashboard.frameRow(telemetry, width: 80) == "29.9  dropped 3  queue 1  g2g 10/23 ms  #38412")
        #expect(SubscriberDashboard.frameRow(telemetry, width: 40) == "29.9  dropped 3  g2g 10/23 ms  #38412")
        #expect(SubscriberDashboard.frameRow(telemetry, width: 34) == "29.9  drop 3  g2g 10/23ms  #38412")
        #expect(SubscriberDashboard.frameRow(telemetry, width: 20) == "29.9  drop 3  #38412")
        telemetry.glassToGlass = nil
        #expect(SubscriberDashboard.frameRow(telemetry, width: 80) == "29.9  dropped 3  queue 1")
    }

    /// Issue 28 (10): under LANG=C the quadrant blocks become '^', '[', '#', and the digits were unreadable.
    @Test("big digits under an ASCII-only terminal are plain digits, readable")
    func bigDigitsInASCII() {
        var theme = Theme.builtInDefault
        theme.asciiOnly = true
        var buffer = CellBuffer(width: 20, height: 3)
        BlockDigits("01:11").render(in: buffer.area, into: &buffer, theme: theme)
        #expect(buffer.asciiOnly(monochrome: false).textLines().contains { $0.contains("01:11") }, "\(buffer.text)")
        buffer = CellBuffer(width: 20, height: 3)
        BlockDigits("01:11").render(in: buffer.area, into: &buffer, theme: .builtInDefault)
        #expect(!buffer.text.contains("01:11"), "with Unicode the digits stay big")
    }
}
