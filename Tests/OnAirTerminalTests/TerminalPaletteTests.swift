import OnAirConsole
import OnAirCore
import OnAirTerminal
import Testing

@Suite("TerminalPalette fallbacks")
struct TerminalPaletteTests {
    let badge = Style(foreground: .ansi(15), background: .rgb(0xC0, 0, 0), attributes: [.bold])

    @Test("the colour mode follows COLORS: 256 → indexed, 8 → basic, fewer → monochrome")
    func modeFromColors() {
        #expect(TerminalColorMode.forTerminal(colors: 256) == .indexed256)
        #expect(TerminalColorMode.forTerminal(colors: 16_777_216) == .indexed256)
        #expect(TerminalColorMode.forTerminal(colors: 8) == .basic8)
        #expect(TerminalColorMode.forTerminal(colors: 0) == .monochrome)
    }

    @Test("256 colours: palette indices, RGB to the nearest cube entry")
    func indexed() {
        let style = TerminalPalette(mode: .indexed256).cursesStyle(for: badge)
        #expect(style.foreground == 15)
        #expect(style.background == 124)
        #expect(style.attributes == [.bold])
    }

    @Test("8 colours: nearest basic colour, bright foregrounds become bold")
    func basic() {
        let style = TerminalPalette(mode: .basic8).cursesStyle(for: badge)
        #expect(style.foreground == 7)
        #expect(style.background == 1)
        #expect(style.attributes.contains(.bold))
        let grey = TerminalPalette(mode: .basic8).cursesStyle(for: Style(foreground: .indexed(245)))
        #expect(grey.foreground == 7)
    }

    @Test("monochrome: no colours, a coloured background becomes reverse video")
    func mono() {
        let style = TerminalPalette(mode: .monochrome).cursesStyle(for: badge)
        #expect(style.foreground == -1 && style.background == -1)
        #expect(style.attributes.contains(.reverse))
        let plain = TerminalPalette(mode: .monochrome).cursesStyle(for: Style(foreground: .ansi(2)))
        #expect(!plain.attributes.contains(.reverse))
    }

    @Test("monochrome turns half-block picture cells into 1-bit blocks; colour modes leave them alone")
    func monochromePreview() {
        let mono = TerminalPalette(mode: .monochrome)
        let lightOverDark = Style(foreground: .rgb(250, 250, 250), background: .rgb(10, 10, 10))
        #expect(mono.monochromeHalfBlock("▀", style: lightOverDark) == "▀")
        #expect(mono.monochromeHalfBlock("▀", style: Style(foreground: .rgb(0, 0, 0), background: .rgb(255, 255, 0))) == "▄")
        #expect(mono.monochromeHalfBlock("▀", style: Style(foreground: .rgb(255, 255, 255), background: .rgb(200, 200, 200))) == "█")
        #expect(mono.monochromeHalfBlock("▀", style: Style(foreground: .rgb(0, 0, 90), background: .rgb(20, 0, 0))) == " ")
        #expect(mono.monochromeHalfBlock("▀", style: Style(foreground: .ansi(1), background: .ansi(2))) == nil)
        #expect(mono.monochromeHalfBlock("x", style: lightOverDark) == nil)
        #expect(TerminalPalette(mode: .indexed256).monochromeHalfBlock("▀", style: lightOverDark) == nil)
    }

    @Test("without default colours, 'default' is white on black")
    func noDefaults() {
        let style = TerminalPalette(mode: .indexed256, hasDefaultColors: false).cursesStyle(for: .plain)
        #expect(style.foreground == 7 && style.background == 0)
    }
}

@Suite("NO_COLOR")
struct NoColorTests {
    @Test("a non-empty NO_COLOR forces monochrome; empty or unset leaves the terminal's choice")
    func noColor() {
        #expect(TerminalColorMode.override(environment: ["NO_COLOR": "1"]) == .monochrome)
        #expect(TerminalColorMode.override(environment: ["NO_COLOR": ""]) == nil)
        #expect(TerminalColorMode.override(environment: [:]) == nil)
    }

    @Test("8 colours: the unfocused border and a cleared flag are not black on black, and ● differs from ○")
    func basicGreysStayVisible() throws {
        let palette = TerminalPalette(mode: .basic8)
        let theme = Theme.builtInDefault
        let border = palette.cursesStyle(for: theme[.border])
        #expect(border.foreground != 0 && border.foreground != -1, "border drawn in \(border.foreground)")
        #expect(border.attributes.contains(.dim))
        let on = palette.cursesStyle(for: theme[.flagOn])
        let off = palette.cursesStyle(for: theme[.flagOff])
        #expect(off.foreground != 0)
        #expect(on != off, "● and ○ share one style on 8 colours")
    }

    @Test("--color never and a colourless theme force monochrome; NO_COLOR only under auto")
    func colorChoice() {
        #expect(ColorChoice.never.forcedMode(environment: [:], themeDrawsColour: true) == .monochrome)
        #expect(ColorChoice.auto.forcedMode(environment: ["NO_COLOR": "1"], themeDrawsColour: true) == .monochrome)
        #expect(ColorChoice.auto.forcedMode(environment: ["NO_COLOR": ""], themeDrawsColour: true) == nil)
        #expect(ColorChoice.auto.forcedMode(environment: [:], themeDrawsColour: false) == .monochrome)
        #expect(ColorChoice.always.forcedMode(environment: ["NO_COLOR": "1"], themeDrawsColour: true) == nil)
    }

    @Test("8 colours: on a whole themed screen no visible character is drawn in its own background colour")
    func basicScreenLegible() throws {
        var publisher = PublisherAppState(policy: .tapRepublish, streamName: "stream1", redactedURL: "rtmp://127.0.0.1:1935/live/stream1")
        publisher.status = .pausedVideo
        publisher.pauseVideo = true
        let subscriber = SubscriberAppState(streamName: "stream1", redactedURL: "rtmp://127.0.0.1:1935/live/stream1")
        let screen = ConsoleScreen(publisher: publisher, subscriber: subscriber, now: SessionTime(milliseconds: 5000))
        let palette = TerminalPalette(mode: .basic8)
        for theme in [Theme.builtInDefault] {
            let buffer = screen.render(width: 80, height: 24, theme: theme)
            var invisible: [String] = []
            for y in 0..<buffer.height {
                for x in 0..<buffer.width where buffer[x, y].character != " " {
                    let style = palette.cursesStyle(for: buffer[x, y].style)
                    // -1 is the terminal's default background: black on the usual dark terminal.
                    let background = style.background == -1 ? 0 : style.background
                    if style.foreground == background, !style.attributes.contains(.reverse) {
                        invisible.append("\(buffer[x, y].character)@\(x),\(y)")
                    }
                }
            }
            #expect(invisible.isEmpty, "invisible on 8 colours: \(invisible.prefix(10))")
        }
    }
}
