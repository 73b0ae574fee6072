import OnAirCore
import Testing

/// Commands that name one output of several (issue 30): a server command on output N's embedded relay
/// (`server-stall 30s 2`) and `output-stop N` / `output-start N`, parsed with bounds and judged by the one rule.
@Suite("commands that name an output: parsing and the one rule")
struct OutputAddressedCommandTests {
    @Test("a server command names an output after its duration; without a number, or with 1, it is output 1's as before")
    func serverParsing() throws {
        #expect(OperatorCommand("server-stall 30s 2") == .outputServer(.stall(.seconds(30)), output: 2))
        #expect(OperatorCommand("SERVER-BUSY 8 3") == .outputServer(.busy(.seconds(8)), output: 3))
        #expect(OperatorCommand("server-move 2") == .outputServer(.move, output: 2))
        #expect(OperatorCommand("server-stall 2") == .server(.stall(.seconds(2))), "a lone number is still the duration")
        #expect(OperatorCommand("server-stall 30s 1") == .server(.stall(.seconds(30))))
        #expect(OperatorCommand("server-stall 30s 2")?.name == "server-stall 30s 2")
        #expect(OperatorCommand(OperatorCommand.outputServer(.busy(.seconds(8)), output: 2).name) == .outputServer(.busy(.seconds(8)), output: 2),
                "the logged name reads back")
        for bad in ["server-stall 30s -2", "server-stall 30s 12345", "server-stall 30s x", "server-move 2 3", "server-stall 30s 2 3"] {
            #expect(OperatorCommand(bad) == nil, "\(bad)")
        }
    }

    @Test("a server command on output N: refused when there is no output N or its server is not an embedded relay")
    func serverRule() {
        var targets = CommandTargets(publisher: OutputCommandRuleTests.publisher(.publishing), hasRelay: true)
        let stall = OperatorCommand.outputServer(.stall(.seconds(30)), output: 2)
        #expect(stall.refusalMessage(in: targets) == "server-stall: no output 2: this broadcast has one output (repeat --server to publish to several)")
        targets.outputCount = 3
        targets.relayOutputs = [1, 3]
        #expect(stall.refusalMessage(in: targets) == "server-stall: output 2 has no embedded relay (its server is one given with --server)")
        #expect(OperatorCommand.outputServer(.move, output: 3).refusal(in: targets) == nil)
        #expect(OperatorCommand.outputServer(.move, output: 4).refusal(in: targets) == "server-move: no output 4: this broadcast has outputs 1…3")
        #expect(stall.side(in: targets) == .frontEnd)
    }

    @Test("output-stop N / output-start N parse with bounds and blanks ignored")
    func controlParsing() {
        #expect(OperatorCommand("output-stop 2") == .outputControl(.stop, output: 2))
        #expect(OperatorCommand("  Output-Start   3 ") == .outputControl(.start, output: 3))
        #expect(OperatorCommand("output-stop 2")?.name == "output-stop 2")
        for bad in ["output-stop", "output-stop x", "output-start -1", "output-stop 12345", "output-start 2 3"] {
            #expect(OperatorCommand(bad) == nil, "\(bad)")
        }
        #expect(OperatorCommand.names.contains("output-stop N") && OperatorCommand.names.contains("output-start N"))
    }

    @Test("output-stop N / output-start N: no such output, output 1 is the broadcast's own, outputs 2…N their own reason")
    func controlRule() {
        var targets = CommandTargets(publisher: OutputCommandRuleTests.publisher(.publishing))
        #expect(OperatorCommand.outputControl(.stop, output: 2).refusalMessage(in: targets)
            == "output-stop 2: no output 2: this broadcast has one output (give more URLs to publish to several)")
        targets.outputCount = 3
        #expect(OperatorCommand.outputControl(.stop, output: 1).refusal(in: targets)?.hasPrefix("output 1 is the publisher's own connection") == true)
        #expect(OperatorCommand.outputControl(.start, output: 4).refusal(in: targets) == "no output 4: this broadcast has outputs 1…3")
        #expect(OperatorCommand.outputControl(.stop, output: 2).refusal(in: targets) == nil)
        targets.outputControlRefusals[.stop] = [2: "output 2 is already stopped"]
        #expect(OperatorCommand.outputControl(.stop, output: 2).refusalMessage(in: targets) == "output-stop 2: output 2 is already stopped")
        #expect(OperatorCommand.outputControl(.start, output: 2).refusal(in: targets) == nil)
        #expect(OperatorCommand.outputControl(.stop, output: 2).refusal(in: CommandTargets()) == "that is a publisher command")
    }

    @Test("a link command names an output after its fixed values; handoff names none; link-down 1 is link-down")
    func linkParsing() {
        #expect(OperatorCommand("link-down 2") == .outputLink(.down, output: 2))
        #expect(OperatorCommand("link-cap 800k 3") == .outputLink(.cap(bitsPerSecond: 800_000), output: 3))
        #expect(OperatorCommand("link-delay 120 2") == .outputLink(.delay(.milliseconds(120)), output: 2))
        #expect(OperatorCommand("link-down 1") == .link(.down))
        #expect(OperatorCommand("link-cap 800k") == .link(.cap(bitsPerSecond: 800_000)))
        #expect(OperatorCommand("handoff 1.5M 40") == .link(.handoff(capBitsPerSecond: 1_500_000, delay: .milliseconds(40))), "40 stays the delay")
        #expect(OperatorCommand("link-down 2")?.name == "link-down 2")
        #expect(OperatorCommand.linkError(in: "link-down 2") == nil)
        #expect(OperatorCommand.linkError(in: "link-down x") != nil, "not an output number: still too many values")
        #expect(OperatorCommand.linkError(in: "link-cap 9 2") != nil, "a bad rate is still refused before anything runs")
    }

    @Test("a link command on output N ≥ 2 is refused: no such output, or no link stage in front of it")
    func linkRule() {
        var targets = CommandTargets(publisher: OutputCommandRuleTests.publisher(.publishing))
        targets.outputCount = 2
        #expect(OperatorCommand.outputLink(.down, output: 2).refusalMessage(in: targets)
            == "link-down 2: output 2 has no link stage: it stands in front of output 1 only (link-down without a number)")
        #expect(OperatorCommand.outputLink(.down, output: 3).refusalMessage(in: targets) == "link-down 3: no output 3: this broadcast has outputs 1…2")
        #expect(OperatorCommand.outputLink(.down, output: 2).side(in: targets) == .publisher)
    }
}
