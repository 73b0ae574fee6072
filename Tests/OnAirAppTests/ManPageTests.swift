import Foundation
import OnAirTestSupport
import Testing

/// `docs/onair.1` stays true to the binary: every option `--help` lists is on the man page, and groff
/// reads the page without a warning.
@Suite("man page")
struct ManPageTests {
    static let page = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("docs/onair.1")

    @Test("every option of every subcommand's --help is documented in onair.1", arguments: ["demo", "publish", "subscribe", "serve"])
    func optionsDocumented(subcommand: String) throws {
        let text = try String(contentsOf: Self.page, encoding: .utf8).replacingOccurrences(of: "\\-", with: "-")
        let help = try OnAirBinary.run([subcommand, "--help"])
        #expect(help.status == 0)
        let options = Set(help.standardOutput.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "," })
            .filter { $0.hasPrefix("--") && $0.count > 2 }.map { String($0.prefix { $0 == "-" || ($0.isASCII && ($0.isLetter || $0.isNumber)) }) })
            .subtracting(["--help", "--version"])
        #expect(!options.isEmpty)
        let missing = options.filter { !text.contains($0) }.sorted()
        #expect(missing.isEmpty, "onair \(subcommand) options missing from docs/onair.1: \(missing)")
    }

    /// Issue 28 (10): `.BR \-\-direct ), capped …` ran its words together ("--direct),cappedatRATE").
    @Test("the page reads as sentences: a bold option followed by words keeps its spaces")
    func rendersSentences() throws {
        let result = try PeerProcess.run(
            "groff", ["-man", "-Tascii", "-P-c", "-P-b", "-P-u", "-rLL=300n", "-rHY=0", Self.page.path], in: FileManager.default.temporaryDirectory)
        #expect(result.status == 0)
        let text = result.output.split(whereSeparator: { $0 == " " || $0 == "\n" }).joined(separator: " ")
        #expect(text.contains("(only then: publish otherwise connects straight to the server; the demo always has one), capped at RATE (800k, 2.5M)"),
                "\(text.prefix(400))")
        #expect(text.contains("With rtmps:// or --direct these options are a usage error."), "\(text.prefix(400))")
    }

    @Test("groff formats onair.1 without warnings")
    func groffClean() throws {
        let result = try PeerProcess.run("groff", ["-man", "-Tutf8", "-ww", "-z", Self.page.path], in: FileManager.default.temporaryDirectory)
        #expect(result.status == 0)
        #expect(result.output.isEmpty && result.error.isEmpty, "\(result.output)\(result.error)")
    }
}
