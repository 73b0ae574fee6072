import Foundation
import OnAirTestSupport
import Testing

/// The real `onair demo` binary in a real terminal (tmux), driven by keys, asserted on the screen text.
@Suite("onair demo in a terminal", .serialized)
struct DemoConsoleTests {
    private func pane(_ screen: String, publisher: Bool) -> String { DemoScreen.pane(screen, publisher: publisher) }

    @Test("tap-republish: c → subscriber shows Publish Background; d → Tap to Re-Publish!; space → publishing and playing again")
    func testbedDeclineAndTapToRepublish() async throws {
        let directory = try TemporaryDirectory()
        let command = "\(OnAirBinary.url.path) demo --policy tap-republish --size 320x180 --record-dir \(directory.url.path)/rec; echo ONAIR-EXIT=$?; sleep 60"
        let tmux = try TmuxSession(command: command, directory: directory.url)

        let started = try await tmux.waitForScreen { screen in
            pane(screen, publisher: true).contains("PUBLISHING") && pane(screen, publisher: false).contains("PLAYING")
                && pane(screen, publisher: false).contains("media resumed")
        }
        #expect(started.matched, "demo never started publishing and playing:\n\(started.screen)")

        try tmux.send("c")
        let background = try await tmux.waitForScreen { pane($0, publisher: false).contains("Publish Background") }
        #expect(background.matched, "no 'Publish Background' on the subscriber:\n\(background.screen)")
        #expect(pane(background.screen, publisher: true).contains("PAUSED VIDEO"))

        try tmux.send("d")
        let declined = try await tmux.waitForScreen { pane($0, publisher: true).contains("Tap to Re-Publish!") }
        #expect(declined.matched, "no 'Tap to Re-Publish!' on the publisher:\n\(declined.screen)")
        #expect(pane(declined.screen, publisher: true).contains("AWAITING TAP"))
        let unpublished = try await tmux.waitForScreen { pane($0, publisher: false).contains("UnpublishNotify") }
        #expect(unpublished.matched, "the subscriber never saw the publisher go:\n\(unpublished.screen)")

        try tmux.send("Space")
        let republished = try await tmux.waitForScreen { screen in
            let publisherPane = pane(screen, publisher: true)
            let subscriberPane = pane(screen, publisher: false)
            return publisherPane.contains(" PUBLISHING ") && subscriberPane.contains(" PLAYING ")
                && subscriberPane.components(separatedBy: "media resumed").count >= 3
        }
        #expect(republished.matched, "not publishing and playing again after the tap:\n\(republished.screen)")

        try tmux.send("q")
        let asked = try await tmux.waitForScreen { $0.contains("Stop broadcasting and quit? y/n") }
        #expect(asked.matched, "q while live did not ask first:\n\(asked.screen)")
        try tmux.send("y")
        let exited = try await tmux.waitForScreen { $0.contains("ONAIR-EXIT=0") }
        #expect(exited.matched, "onair demo did not exit cleanly:\n\(exited.screen)")
    }

    @Test("without a terminal the console refuses in one line and points to --headless")
    func refusesWithoutTerminal() async throws {
        let result = try OnAirBinary.run(["demo", "--size", "320x180"])
        #expect(result.status == 2)
        #expect(result.standardError.contains("--headless"), "\(result.standardError)")
        #expect(result.standardError.split(separator: "\n").count == 1, "\(result.standardError)")
    }

    @Test("an unknown theme is refused with the list of themes")
    func unknownTheme() async throws {
        let result = try OnAirBinary.run(["demo", "--theme", "no-such-theme"])
        #expect(result.status == 2)
        #expect(result.standardError.contains("default"), "\(result.standardError)")
        #expect(result.standardError.contains("monochrome"), "\(result.standardError)")
    }
}
