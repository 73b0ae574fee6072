import Foundation
import OnAirApp
import OnAirCore
import OnAirRelay
import OnAirTestSupport
import Testing

/// GitHub issue 14 items 5 and 9 on `onair serve`'s side: keys kept out of argv, and untrusted names kept
/// out of the operator's terminal.
@Suite("onair serve keys and log text")
struct ServeKeyAndLogTextTests {
    private func options(key: String? = nil, file: String? = nil, environment: String? = nil) -> ServeFrontEnd.Options {
        var options = ServeFrontEnd.Options(listen: "0.0.0.0:1935", publishKey: key, recordDirectory: "rec", idleTimeout: 15,
                                            headless: true)
        options.publishKeyFile = file
        options.environmentPublishKey = environment
        return options
    }

    @Test("--publish-key-file gives the key from its first line, ONAIR_PUBLISH_KEY when no option does")
    func keyFromFileAndEnvironment() throws {
        let directory = try TemporaryDirectory(prefix: "onair-key")
        let file = directory.file("key")
        try "s3cret-from-file\nignored\n".write(to: file, atomically: true, encoding: .utf8)
        #expect(try ServeFrontEnd(options: options(file: file.path)).configuration().publishKey == "s3cret-from-file")
        #expect(try ServeFrontEnd(options: options(environment: "from-env")).configuration().publishKey == "from-env")
        #expect(try ServeFrontEnd(options: options(key: "argv", environment: "from-env")).configuration().publishKey == "argv")
    }

    @Test("both options, a missing file or an empty one are usage errors (exit 2) that never print a key")
    func keyErrors() throws {
        let directory = try TemporaryDirectory(prefix: "onair-key")
        let empty = directory.file("empty")
        try "\n".write(to: empty, atomically: true, encoding: .utf8)
        for options in [options(key: "k1", file: empty.path), options(file: directory.file("missing").path), options(file: empty.path)] {
            do {
                _ = try ServeFrontEnd(options: options).configuration()
                Issue.record("accepted \(options)")
            } catch {
                #expect(error.code == 2)
                #expect(!error.message.contains("k1"))
            }
        }
        // Beyond loopback with no key from anywhere: refused, as before.
        #expect(throws: FrontEndExit.self) { try ServeFrontEnd(options: options()).configuration() }
    }

    @Test("refused names lose their query and control characters in events and in the text log")
    func logText() {
        #expect(RelayLogText.safe("x?key=SECRET") == "x")
        #expect(RelayLogText.safe("\u{1B}]0;PWNED\u{07}name") == "\\u{1b}]0;PWNED\\u{7}name")
        #expect(RelayLogText.safe("\u{9B}31m") == "\\u{9b}31m")
        #expect(RelayLogText.safe(String(repeating: "a", count: 10_000)).count <= RelayLogText.maxLength + 1)
        let line = ServeEventFormatter.line(.publishRefused(stream: "\u{1B}[2J", connection: 1, code: "c", reason: "r\u{07}"))
        #expect(!line.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }, "\(line)")
    }
}
