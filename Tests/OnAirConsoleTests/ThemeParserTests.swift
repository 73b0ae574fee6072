import Foundation
import OnAirConsole
import Testing

@Suite("Theme parser")
struct ThemeParserTests {
    func parse(_ text: String, file: String = "t.theme") throws(ThemeParser.Failure) -> ThemeParser.Result {
        try ThemeParser().parse(Array(text.utf8), file: file, name: "t")
    }

    func failure(_ text: String) -> ThemeParser.Failure? {
        do {
            _ = try parse(text)
            return nil
        } catch {
            return error
        }
    }

    @Test("roles, attributes, colours and backgrounds parse; comments and blank lines are skipped")
    func parsesStyles() throws {
        let result = try parse("""
            # a comment
            description = "test theme"

            liveBadge = "bold bright-white on #c00000"   # trailing comment
            logRTMP   = "color114"
              toast="reverse underline yellow on default"
            border = "grey"
            """)
        #expect(result.warnings.isEmpty)
        #expect(result.theme.summary == "test theme")
        #expect(result.theme[.liveBadge] == Style(foreground: .ansi(15), background: .rgb(0xC0, 0, 0), attributes: [.bold]))
        #expect(result.theme[.logRTMP] == Style(foreground: .indexed(114)))
        #expect(result.theme[.toast] == Style(foreground: .ansi(3), attributes: [.reverse, .underline]))
        #expect(result.theme[.border] == Style(foreground: .ansi(8)))
    }

    @Test("roles a theme leaves out fall back to the built-in default")
    func fallsBack() throws {
        let result = try parse("liveBadge = \"green\"\n")
        #expect(result.theme[.liveBadge] == Style(foreground: .ansi(2)))
        #expect(result.theme[.errorBadge] == Theme.builtInDefault[.errorBadge])
        #expect(result.theme.overrides.count == 1)
    }

    @Test("an unknown role is a warning with its line number; a repeated role warns and the last wins")
    func warnings() throws {
        let result = try parse("liveBadge = \"red\"\nliveBadge2 = \"red\"\nliveBadge = \"blue\"\n", file: "x.theme")
        #expect(result.warnings.map(\.description) == [
            "x.theme:2: warning: unknown role 'liveBadge2' ignored",
            "x.theme:3: warning: 'liveBadge' already set on line 1; this line wins",
        ])
        #expect(result.theme[.liveBadge].foreground == .ansi(4))
    }

    @Test("malformed lines are errors naming file and line", arguments: [
        ("liveBadge \"red\"", 1, "expected '='"),
        ("\nliveBadge = red", 2, "double quotes"),
        ("\n\nliveBadge = \"red", 3, "missing closing quote"),
        ("liveBadge = \"red\" extra", 1, "unexpected 'e'"),
        ("liveBadge = \"\"", 1, "empty style"),
        ("liveBadge = \"purple\"", 1, "unknown word 'purple'"),
        ("liveBadge = \"red blue\"", 1, "two foreground colours"),
        ("liveBadge = \"red on\"", 1, "'on' must be followed"),
        ("liveBadge = \"#12345\"", 1, "not a #rrggbb"),
        ("liveBadge = \"#gg0000\"", 1, "not a #rrggbb"),
        ("liveBadge = \"color256\"", 1, "out of range"),
        ("liveBadge = \"color-1\"", 1, "not colorN"),
        ("= \"red\"", 1, "expected a role name"),
    ])
    func malformed(text: String, line: Int, message: String) throws {
        let error = try #require(failure(text))
        #expect(error.file == "t.theme")
        #expect(error.line == line)
        #expect(error.message.contains(message), "\(error)")
        #expect(error.description.hasPrefix("t.theme:\(line): "))
    }

    @Test("invalid UTF-8 and over-long lines are errors, not crashes")
    func hostileBytes() {
        let invalid: [UInt8] = Array("liveBadge = \"red\"\n".utf8) + [0x62, 0xFF, 0xFE, 0x0A]
        #expect(throws: ThemeParser.Failure(file: "b", line: 2, message: "not valid UTF-8")) {
            try ThemeParser().parse(invalid, file: "b", name: "b")
        }
        let long = Array(repeating: UInt8(ascii: "a"), count: 10_000)
        #expect(throws: ThemeParser.Failure.self) { try ThemeParser().parse(long, file: "b", name: "b") }
    }

    @Test("a BOM, CRLF line ends and an empty file are accepted")
    func tolerant() throws {
        let result = try ThemeParser().parse(Array("\u{FEFF}liveBadge = \"red\"\r\ntoast = \"blue\"\r\n".utf8), file: "w", name: "w")
        #expect(result.theme[.liveBadge].foreground == .ansi(1))
        #expect(result.theme[.toast].foreground == .ansi(4))
        #expect(try ThemeParser().parse([UInt8](), file: "e", name: "e").theme.overrides.isEmpty)
    }

    @Test("a style prints back in theme syntax and parses to itself")
    func roundTrip() throws {
        for role in ThemeRole.allCases {
            let style = Theme.builtInDefault[role]
            let result = try parse("\(role.rawValue) = \"\(style)\"\n")
            #expect(result.theme[role] == style, "\(role): \(style)")
        }
    }
}
