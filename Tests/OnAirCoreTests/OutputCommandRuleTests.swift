import OnAirCore
import Testing

/// `reconnect N` (issue 30): parsed with bounds, and one rule says whether it acts — the output must exist,
/// output 1 follows the publisher's own `start` rule, outputs 2…N their `OutputLink`'s.
@Suite("reconnect N: parsing and the one rule")
struct OutputCommandRuleTests {
    static func publisher(_ status: PublisherStatus) -> PublisherAppState {
        var state = PublisherAppState(policy: .tapRepublish, streamName: "s", redactedURL: "")
        state.status = status
        return state
    }

    @Test("reconnect N parses with blanks and case ignored; a bare reconnect stays output 1's; no sign, no overflow")
    func parsing() {
        #expect(OperatorCommand("reconnect 2") == .reconnectOutput(2))
        #expect(OperatorCommand(" RECONNECT   12 ") == .reconnectOutput(12))
        #expect(OperatorCommand("reconnect 2")?.name == "reconnect 2")
        #expect(OperatorCommand("reconnect") == .publisher(.start(nil)))
        for bad in ["reconnect -1", "reconnect x", "reconnect 2.5", "reconnect 12345", "reconnect 99999999999999999999999", "reconnect ٣"] {
            #expect(OperatorCommand(bad) == nil, "\(bad)")
        }
        #expect(OperatorCommand.names.contains("reconnect N"))
    }

    @Test("the rule: no such output, output 1 as the publisher's start, outputs 2…N their own reason")
    func rule() {
        var targets = CommandTargets(publisher: Self.publisher(.publishing))
        #expect(OperatorCommand.reconnectOutput(2).refusalMessage(in: targets)
            == "reconnect 2: no output 2: this broadcast has one output (give more URLs to publish to several)")
        targets.outputCount = 3
        #expect(OperatorCommand.reconnectOutput(4).refusalMessage(in: targets) == "reconnect 4: no output 4: this broadcast has outputs 1…3")
        #expect(OperatorCommand.reconnectOutput(0).refusal(in: targets) != nil)
        #expect(OperatorCommand.reconnectOutput(3).refusal(in: targets) == nil)
        targets.outputRefusals[3] = "output 3 is not on air"
        #expect(OperatorCommand.reconnectOutput(3).refusalMessage(in: targets) == "reconnect 3: output 3 is not on air")
        #expect(OperatorCommand.reconnectOutput(2).refusal(in: targets) == nil)
        var idle = Self.publisher(.idle)
        idle.refusals[.control(.start(nil))] = "nothing to restart"
        targets.publisher = idle
        #expect(OperatorCommand.reconnectOutput(1).refusal(in: targets) == "nothing to restart", "output 1 is the publisher's own rule")
        #expect(OperatorCommand.reconnectOutput(2).refusal(in: CommandTargets()) == "that is a publisher command")
    }

    @Test("an output's own rule: refused while idle (the broadcast is stopped), allowed while on its way, live or after giving up")
    func outputLinkRule() {
        var link = OutputLink(index: 2, reconnect: ReconnectPolicy(configuration: .init(maxAttempts: 1), jitterUnit: 0))
        #expect(link.reconnectRefusal?.hasPrefix("output 2 is not on air") == true)
        _ = link.handle(.start(.live), at: SessionTime(milliseconds: 0))
        #expect(link.reconnectRefusal == nil)
        _ = link.handle(.publishFailed("refused"), at: SessionTime(milliseconds: 10))
        _ = link.handle(.timerFired(.reconnect), at: SessionTime(milliseconds: 2010))
        _ = link.handle(.publishFailed("refused"), at: SessionTime(milliseconds: 2020))
        #expect(link.stateText == "ERROR")
        #expect(link.reconnectRefusal == nil, "after giving up, reconnect N is how to try again")
    }
}
