@testable import OnAirConsole
import OnAirCore
import Testing

/// Issue 30: `]` and `X`, the output keys, are in the one key table (so the help overlay lists them), offered
/// only when the broadcast has several destinations, and with one they say why they do nothing. What they
/// do with several is the owner's (the output group keeps the focus): `OutputConsoleTests` plays them in tmux.
@Suite("output keys in the key table")
struct OutputKeysTests {
    @Test("] and X map to the output intents and are listed in the help overlay")
    func table() {
        let map = KeyMap.standard
        #expect(map.intent(for: .character("]")) == .focusNextOutput)
        #expect(map.intent(for: .character("X")) == .toggleFocusedOutput)
        #expect(map.helpBindings.contains { $0.intent == .focusNextOutput } && map.helpBindings.contains { $0.intent == .toggleFocusedOutput })
    }

    @Test("offered with several destinations only; with one, the key says why it does nothing")
    func availability() {
        let session = ConsoleFixtures.session(.publishing)
        var context = KeyContext(focus: .publisher, paneCount: 1, publisher: session.state, subscriber: nil)
        #expect(!KeyMap.standard.isAvailable(.focusNextOutput, in: context))
        #expect(!KeyMap.standard.available(in: context).contains { $0.intent == .toggleFocusedOutput })
        context.targets.outputCount = 2
        #expect(KeyMap.standard.isAvailable(.focusNextOutput, in: context) && KeyMap.standard.isAvailable(.toggleFocusedOutput, in: context))

        var ui = ConsoleUIState()
        let command = ui.handle(.character("]"), publisher: session.state, subscriber: nil, now: ConsoleFixtures.now)
        #expect(command == nil)
        #expect(ui.notice?.text == "]: one destination here (give more URLs to publish to several)")
    }
}
