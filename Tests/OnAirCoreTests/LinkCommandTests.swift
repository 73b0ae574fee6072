import OnAirCore
import Testing

@Suite("Link commands and state")
struct LinkCommandTests {
    @Test("the words parse to commands", arguments: [
        ("link-down", LinkCommand.down), ("link-up", .up), ("link-uncap", .uncap),
        ("link-cap 800k", .cap(bitsPerSecond: 800_000)), ("link-cap 2.5M", .cap(bitsPerSecond: 2_500_000)),
        ("link-cap 300000", .cap(bitsPerSecond: 300_000)), ("link-delay 150", .delay(.milliseconds(150))),
        ("link-delay 80ms", .delay(.milliseconds(80))), ("handoff", .handoff(capBitsPerSecond: nil, delay: nil)),
        ("handoff 1500k 90", .handoff(capBitsPerSecond: 1_500_000, delay: .milliseconds(90))),
    ])
    func parses(_ line: String, _ command: LinkCommand) throws {
        #expect(try LinkCommand.parse(line) == command)
    }

    @Test("bad values say what to write", arguments: [
        ("link-cap", "needs a value"), ("link-cap 0", "not a rate"), ("link-cap 20G", "not a rate"),
        ("link-cap fast", "not a rate"), ("link-delay -5", "not a delay"), ("link-delay 70000", "not a delay"),
        ("link-down now", "too many"), ("handoff 1M 50 extra", "too many"), ("link-cap 1e400", "not a rate"),
    ])
    func rejects(_ line: String, _ message: String) {
        #expect {
            _ = try LinkCommand.parse(line)
        } throws: { error in
            "\(error)".contains(message)
        }
    }

    @Test("other words are not link commands")
    func otherWords() throws {
        #expect(try LinkCommand.parse("pause-video") == nil)
        #expect(try LinkCommand.parse("") == nil)
    }

    @Test("the state follows the commands; a handoff moves to the next path and brings the link up")
    func state() {
        var state = LinkImpairmentState()
        #expect(state.description == "up")
        let changes = [
            state.apply(.cap(bitsPerSecond: 800_000)), state.apply(.delay(.milliseconds(120))), state.apply(.down), state.apply(.down),
        ]
        #expect(changes == [true, true, true, false])
        #expect(state.description == "down cap 800k delay 120ms")
        state.apply(.handoff(capBitsPerSecond: 2_500_000, delay: nil))
        #expect(state == LinkImpairmentState(isUp: true, capBitsPerSecond: 2_500_000, delay: .milliseconds(120), path: 1))
        state.apply(.uncap)
        #expect(state.description == "up delay 120ms path 1")
    }

    @Test("a link command acts whenever a stage exists, and is refused with the reason when there is none")
    func legality() throws {
        for line in ["link-down", "link-up", "handoff", "handoff 300k 120", "link-cap 800k", "link-uncap", "link-delay 150"] {
            let command = try #require(try LinkCommand.parse(line))
            #expect(command.refusal(stage: LinkImpairmentState(isUp: false)) == nil, "\(line)")
            let reason = try #require(command.refusal(stage: nil), "\(line)")
            #expect(reason.hasPrefix("\(line.split(separator: " ")[0]): no link stage"), "\(reason)")
            #expect(command.text == line, "the command reads back as typed")
        }
    }

    @Test("the cap key walks none → 2.5M → 500k → 250k → none; a cap off the presets goes to the first")
    func capPresets() {
        #expect(LinkCommand.nextCapPreset(after: nil) == .cap(bitsPerSecond: 2_500_000))
        // Issue 28 (8): the middle preset bites the default picture (620–780 kbit/s).
        #expect(LinkCommand.nextCapPreset(after: 2_500_000) == .cap(bitsPerSecond: 500_000))
        #expect(LinkCommand.nextCapPreset(after: 500_000) == .cap(bitsPerSecond: 250_000))
        #expect(LinkCommand.nextCapPreset(after: 250_000) == .uncap)
        #expect(LinkCommand.nextCapPreset(after: 123_000) == .cap(bitsPerSecond: 2_500_000))
        #expect(LinkImpairmentState(isUp: false).dashboardText == "DOWN")
        #expect(LinkImpairmentState(capBitsPerSecond: 800_000, delay: .milliseconds(150), path: 1).dashboardText == "800k 150ms path 1")
    }
}
