import OnAirCore
import Testing

/// The server's side as words (issue 27): one vocabulary for keys, stdin and scenario presses, bounded
/// durations, and one rule that refuses them where no embedded relay runs.
@Suite("Server commands")
struct ServerCommandTests {
    @Test("the words and their durations", arguments: [
        ("server-restart", ServerCommand.restart(.seconds(3))),
        ("server-restart 5", .restart(.seconds(5))),
        ("server-busy 1.5s", .busy(.milliseconds(1500))),
        ("server-stall 500ms", .stall(.milliseconds(500))),
        ("server-stall 2m", .stall(.seconds(120))),
        ("server-move", .move),
    ])
    func parse(_ text: String, _ expected: ServerCommand) throws {
        #expect(try ServerCommand.parse(text) == expected)
        #expect(OperatorCommand(text) == .server(expected))
        #expect(OperatorCommand("  \(text.uppercased()) ") == .server(expected))
        #expect(OperatorCommand(OperatorCommand.server(expected).name) == .server(expected), "the logged name reads back")
    }

    @Test("bad durations and extra values are refused with the reason", arguments: [
        ("server-restart 0", "not a duration between 100ms and 300s"),
        ("server-busy 50ms", "not a duration between 100ms and 300s"),
        ("server-stall 301s", "not a duration between 100ms and 300s"),
        ("server-restart soon", "not a duration"),
        ("server-restart 1e9", "not a duration"),
        ("server-busy 3 4 5", "too many values after server-busy"),
        ("server-move 3 4", "too many values after server-move"),
        ("server-move soon", "too many values after server-move"),
    ])
    func refusals(_ text: String, _ message: String) {
        #expect(OperatorCommand(text) == nil)
        #expect(OperatorCommand.linkError(in: text)?.contains(message) == true, "\(String(describing: OperatorCommand.linkError(in: text)))")
    }

    @Test("other words are not server commands")
    func notServerWords() throws {
        #expect(try ServerCommand.parse("server") == nil)
        #expect(try ServerCommand.parse("link-down") == nil)
        #expect(OperatorCommand("sub server-restart") == nil)
    }

    @Test("refused with the reason where no embedded relay runs; acted on the front end where one does")
    func legality() {
        let command = OperatorCommand.server(.restart(.seconds(3)))
        let without = CommandTargets(publisher: nil, subscriber: nil)
        #expect(command.refusalMessage(in: without) == "server-restart: no embedded relay here (only onair demo without --server runs one)")
        #expect(command.refusal(in: CommandTargets(hasRelay: true)) == nil)
        #expect(command.side(in: without) == .frontEnd)
        #expect(command.onSubscriber == command)
        #expect(command.publisherCommand == nil)
    }
}
