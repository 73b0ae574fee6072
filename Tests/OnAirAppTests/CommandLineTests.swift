import Testing

@Suite("onair command line")
struct CommandLineTests {
    @Test("--help lists the five subcommands, each with a one-line description")
    func helpListsSubcommands() throws {
        let result = try OnAirBinary.run(["--help"])
        #expect(result.status == 0)
        for command in ["demo", "publish", "subscribe", "serve", "themes"] {
            let line = result.standardOutput.split(separator: "\n")
                .map { $0.trimmingPrefix(while: \.isWhitespace) }
                .first { $0.hasPrefix(command + " ") }
            #expect(line != nil, "no line for \(command) in:\n\(result.standardOutput)")
            if let line {
                #expect(line.dropFirst(command.count).trimmingPrefix(while: \.isWhitespace).count > 10, "\(command) has no description")
            }
        }
    }

    @Test("publish --help names the further destinations <more-urls>, not the parser's split of moreURLs")
    func publishUsageNamesFurtherURLs() throws {
        let result = try OnAirBinary.run(["publish", "--help"])
        #expect(result.status == 0)
        let usage = result.standardOutput.split(separator: "\n").first { $0.hasPrefix("USAGE:") } ?? ""
        #expect(usage.hasSuffix("<url> [<more-urls> ...]"), "usage line: \(usage)")
        #expect(result.standardOutput.contains("  <more-urls>"))
    }

    @Test("--version prints a version")
    func versionPrints() throws {
        let result = try OnAirBinary.run(["--version"])
        #expect(result.status == 0)
        #expect(result.standardOutput.contains("0."))
    }

    @Test("an unknown subcommand is refused with a usage error")
    func unknownSubcommandFails() throws {
        let result = try OnAirBinary.run(["broadcast-everything"])
        #expect(result.status != 0)
        #expect(!result.standardError.isEmpty)
    }
}
