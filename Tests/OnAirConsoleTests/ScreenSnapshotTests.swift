import Foundation
import OnAirConsole
import OnAirCore
import Testing

/// Whole screens at the two sizes issue 6 names, compared with golden text files.
@Suite("Screen snapshots")
struct ScreenSnapshotTests {
    struct Size: Sendable, CustomTestStringConvertible {
        var width: Int
        var height: Int
        var name: String { "\(width)x\(height)" }
        var testDescription: String { name }
    }

    static let sizes = [Size(width: 80, height: 24), Size(width: 160, height: 48)]

    static let statuses: [PublisherStatus] = [
        .idle, .preview, .connecting, .publishing, .pausedVideo, .interrupted, .awaitingTap,
        .reconnecting(attempt: 2, maxAttempts: 5), .error("connection refused by 127.0.0.1:1935"),
    ]

    static func slug(_ text: String) -> String {
        text.lowercased().map { $0.isLetter || $0.isNumber ? $0 : "-" }.reduce(into: "") { result, c in
            if !(c == "-" && result.last == "-") { result.append(c) }
        }.trimmingCharacters(in: CharacterSet(charactersIn: "-"))
    }

    @Test("every publisher state badge, at 80×24 and 160×48", arguments: statuses, sizes)
    func publisherBadge(status: PublisherStatus, size: Size) {
        let screen = ConsoleScreen(publisher: ConsoleFixtures.publisher(status), publisherTelemetry: ConsoleFixtures.telemetry(), now: ConsoleFixtures.now)
        let buffer = screen.render(width: size.width, height: size.height, theme: .builtInDefault)
        #expect(buffer.text.contains(" \(status.badge) "))
        Snapshot.assert(Snapshot.screen(buffer), named: "publisher-\(Self.slug(status.badge))-\(size.name)")
    }

    static let toasts: [(pane: ConsolePane, text: String)] = [
        (.publisher, "Tap to Re-Publish!"), (.subscriber, "Publish Background"), (.subscriber, "Publisher Foreground"),
    ]

    @Test("each toast of the seeds, centred on its pane", arguments: [0, 1, 2], sizes)
    func toast(index: Int, size: Size) {
        let (pane, text) = Self.toasts[index]
        let posted = SessionTime(milliseconds: ConsoleFixtures.now.milliseconds - 500)
        var screen = ConsoleScreen(now: ConsoleFixtures.now)
        switch pane {
        case .publisher:
            var state = ConsoleFixtures.publisher(.awaitingTap)
            state.toasts.post(Toast(text: text, postedAt: posted))
            screen.publisher = state
            screen.publisherTelemetry = ConsoleFixtures.telemetry()
        case .subscriber:
            var state = ConsoleFixtures.subscriber()
            state.publisherIsInBackground = text == "Publish Background"
            state.toasts.post(Toast(text: text, postedAt: posted))
            screen.subscriber = state
            screen.subscriberTelemetry = ConsoleFixtures.telemetry()
        }
        let buffer = screen.render(width: size.width, height: size.height, theme: .builtInDefault)
        #expect(buffer.text.contains(text))
        Snapshot.assert(Snapshot.screen(buffer), named: "toast-\(Self.slug(text))-\(size.name)")
    }

    @Test("demo screen with both panes: stacked at 80 columns, side by side at 160", arguments: sizes, [ConsolePane.publisher, .subscriber])
    func demo(size: Size, focus: ConsolePane) {
        let buffer = ConsoleFixtures.demo(focus: focus).render(width: size.width, height: size.height, theme: .builtInDefault)
        let lines = buffer.textLines()
        let publisherRow = lines.firstIndex { $0.contains("Publisher · stream1") }
        let subscriberRow = lines.firstIndex { $0.contains("Subscriber · stream1") }
        #expect(publisherRow != nil && subscriberRow != nil)
        if size.width >= ConsoleScreen.sideBySideMinimumWidth {
            #expect(publisherRow == subscriberRow)
        } else {
            #expect((publisherRow ?? 0) < (subscriberRow ?? 0))
        }
        let focusedTitle = focus == .publisher ? "▶ Publisher" : "▶ Subscriber"
        #expect(buffer.text.contains(focusedTitle))
        Snapshot.assert(Snapshot.screen(buffer), named: "demo-focus-\(focus.rawValue)-\(size.name)")
    }

    static let themeNames = ["default", "high-contrast", "monochrome", "light"]

    @Test("each shipped theme on the demo screen, with its style layer", arguments: themeNames, sizes)
    func theme(name: String, size: Size) throws {
        let loaded = try ThemeFiles.load(name)
        #expect(loaded.warnings.isEmpty)
        var screen = ConsoleFixtures.demo()
        var publisher = ConsoleFixtures.publisher(.pausedVideo)
        publisher.toasts.post(Toast(text: "Tap to Re-Publish!", postedAt: ConsoleFixtures.now))
        screen.publisher = publisher
        let buffer = screen.render(width: size.width, height: size.height, theme: loaded.theme)
        Snapshot.assert(Snapshot.styled(buffer), named: "theme-\(name)-\(size.name)")
    }

    @Test("the help overlay and the quit confirmation", arguments: ["help", "quit"])
    func overlays(kind: String) {
        var screen = ConsoleFixtures.demo()
        if kind == "help" { screen.ui.showHelp = true } else { screen.ui.confirmingQuit = true }
        let buffer = screen.render(width: 80, height: 24, theme: .builtInDefault)
        if kind == "quit" { #expect(buffer.text.contains(ConsoleScreen.quitQuestion)) }
        if kind == "help" { #expect(buffer.text.contains("Keys")) }
        Snapshot.assert(Snapshot.screen(buffer), named: "overlay-\(kind)-80x24")
    }
}

/// The repository's `Themes/` folder, found from this file's path.
enum ThemeFiles {
    static let directory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Themes").path

    /// Parses the shipped `NAME.theme` (the file lookup itself is ThemeCatalog's, tested in OnAirTerminalTests).
    static func load(_ name: String) throws -> ThemeParser.Result {
        let path = (directory as NSString).appendingPathComponent(name + ".theme")
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        return try ThemeParser().parse(Array(data), file: path, name: name)
    }
}

@Suite("Screen layouts at every size")
struct LayoutSweepTests {
    @Test("from 40×10 to 220×70 every frame fits: footer on the last row, panes and overlays inside the screen")
    func sweep() {
        var failures: [String] = []
        for width in stride(from: 40, through: 220, by: 7) {
            for height in stride(from: 10, through: 70, by: 5) {
                for variant in 0..<4 {
                    var screen = ConsoleFixtures.demo(focus: variant % 2 == 0 ? .publisher : .subscriber)
                    screen.ui.showHelp = variant == 2
                    screen.ui.confirmingQuit = variant == 3
                    screen.publisher?.toasts.post(Toast(text: "Tap to Re-Publish!", postedAt: ConsoleFixtures.now))
                    let buffer = screen.render(width: width, height: height, theme: .builtInDefault)
                    let lines = buffer.textLines(trimmingTrailingSpaces: false)
                    if lines.count != height || lines.contains(where: { DisplayWidth.of($0) != width }) {
                        failures.append("\(width)x\(height) variant \(variant): wrong frame size")
                    }
                    if !lines[height - 1].contains("q quit") && variant != 3 {
                        failures.append("\(width)x\(height) variant \(variant): footer lost 'q quit'")
                    }
                    if variant == 3 && !buffer.text.contains("y/n") {
                        failures.append("\(width)x\(height): quit question cut")
                    }
                    if variant < 2 && !(lines[0].hasPrefix("┌") || lines[0].hasPrefix("┏")) {
                        failures.append("\(width)x\(height): no pane border at the top left")
                    }
                }
            }
        }
        #expect(failures.isEmpty, "\(failures.prefix(10))")
    }

    @Test("below the minimum size a one-line message asks for more room")
    func tooSmall() {
        let buffer = ConsoleFixtures.demo().render(width: 30, height: 5, theme: .builtInDefault)
        #expect(buffer.textLines()[0].hasPrefix("terminal too small (30×5)"))
    }
}
