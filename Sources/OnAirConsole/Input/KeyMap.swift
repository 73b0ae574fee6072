import OnAirCore

/// The table of key → intent: an operator command (the stdin and scenario vocabulary) or a change of what
/// the console shows. The key reader, the footer and the help overlay all read this one table, so a key
/// cannot work without being listed, nor be listed without working.
public struct KeyMap: Sendable {
    public var bindings: [KeyBinding]

    public init(bindings: [KeyBinding]) {
        self.bindings = bindings
    }

    /// The console's keys (docs/design.md §1.1 and issue 6).
    public static let standard = KeyMap(bindings: [
        KeyBinding(keys: [.character("c")], intent: .command(.phone(.incomingCall)), label: "call", help: "an incoming phone call rings (willResignActive)"),
        KeyBinding(keys: [.character("s")], intent: .command(.phone(.siri)), label: "Siri", help: "Siri is activated (willResignActive)"),
        KeyBinding(keys: [.character("d")], intent: .command(.phone(.decline)), label: "decline", help: "decline the call / dismiss Siri (didBecomeActive)"),
        KeyBinding(keys: [.character("a")], intent: .command(.phone(.accept)), label: "accept", help: "accept the call (didEnterBackground)"),
        KeyBinding(keys: [.character("h")], intent: .command(.phone(.home)), label: "home", help: "Home button (willResignActive, didEnterBackground)"),
        KeyBinding(keys: [.character("f")], intent: .command(.phone(.returnToApp)), label: "return", help: "return to the app (willEnterForeground, didBecomeActive)"),
        KeyBinding(keys: [.character(" "), .character("t")], intent: .command(.phone(.tap)), label: "tap", help: "tap the screen (meaning depends on the policy)"),
        KeyBinding(keys: [.character("v")], intent: .command(.publisher(.togglePauseVideo)), label: "pauseVideo", help: "toggle pauseVideo (audio keeps flowing)"),
        KeyBinding(keys: [.character("m")], intent: .command(.publisher(.togglePauseAudio)), label: "pauseAudio", help: "toggle pauseAudio (silence is sent)"),
        KeyBinding(keys: [.character("p")], intent: .command(.publisher(.nextPolicy)), label: "policy", help: "switch to the next interrupt policy"),
        KeyBinding(keys: [.character("x")], intent: .command(.publisher(.stop)), label: "stop", help: "stop the broadcast"),
        KeyBinding(keys: [.character("r")], intent: .startBroadcast, label: "start", help: "start; after an error retry; while broadcasting reconnect now"),
        KeyBinding(keys: [.character("w")], intent: .toggleLink, label: "link down", help: "link down (elevator: nothing passes, sockets stay open) / up"),
        KeyBinding(keys: [.character("W")], intent: .command(.link(.handoff(capBitsPerSecond: nil, delay: nil))), label: "handoff", help: "Wi-Fi → cellular handoff: connections reset, a new path"),
        KeyBinding(keys: [.character("k")], intent: .cycleLinkCap, label: "cap", help: "cap the link: none → 2.5M → 500k → 250k → none (weak signal)"),
        KeyBinding(keys: [.character("o")], intent: .togglePreview, label: "preview", help: "show or hide the colour preview"),
        KeyBinding(keys: [.tab, .backTab], intent: .switchPane, label: "pane", help: "give the keys to the other pane"),
        KeyBinding(keys: [.character("l")], intent: .toggleLog, label: "log", help: "the event log on the whole screen, or back"),
        KeyBinding(keys: [.pageUp], intent: .scrollLog(up: true), label: "older", help: "scroll the event log back a page"),
        KeyBinding(keys: [.pageDown], intent: .scrollLog(up: false), label: "newer", help: "scroll the event log forward a page"),
        KeyBinding(keys: [.character("?")], intent: .toggleHelp, label: "help", help: "show or hide this help"),
        KeyBinding(keys: [.character("q")], intent: .quit, label: "quit", help: "quit (asks first while broadcasting)"),
        KeyBinding(keys: [.character("y")], intent: .confirm, label: "yes", help: "confirm"),
        KeyBinding(keys: [.character("n"), .escape], intent: .cancel, label: "no", help: "cancel"),
        KeyBinding(keys: [.character("R")], intent: .command(.server(.restart(ServerCommand.defaultDuration))), label: "srv restart",
                   help: "the server restarts: every connection dropped, new ones refused for 3 s"),
        KeyBinding(keys: [.character("B")], intent: .command(.server(.busy(ServerCommand.defaultDuration))), label: "srv busy",
                   help: "the server refuses publishing as \"already publishing\" for 3 s (met on the next reconnect)"),
        KeyBinding(keys: [.character("S")], intent: .command(.server(.stall(ServerCommand.defaultDuration))), label: "srv stall",
                   help: "the server stops reading from the publisher for 3 s"),
        KeyBinding(keys: [.character("M")], intent: .command(.server(.move)), label: "srv move",
                   help: "the server asks its clients to reconnect elsewhere (ReconnectRequest)"),
        // Last: the footer keeps the keys of the seed flows when 80 columns cannot hold them all.
        KeyBinding(keys: [.character("C")], intent: .toggleDevice(.camera), label: "camera lost", help: "the camera is lost (slate, freeze or black is sent) / back"),
        KeyBinding(keys: [.character("A")], intent: .toggleDevice(.microphone), label: "mic lost", help: "the microphone is lost (silence is sent) / back"),
        KeyBinding(keys: [.character("]")], intent: .focusNextOutput, label: "output", help: "several destinations: the next output gets r (reconnect it) and X"),
        KeyBinding(keys: [.character("X")], intent: .toggleFocusedOutput, label: "output stop", help: "several destinations: stop the focused output / start it again"),
    ])

    /// The intent of a key in `mode`, if the table has one there (whether it is allowed now is separate).
    public func intent(for key: ConsoleKey, mode: ConsoleMode = .normal) -> ConsoleIntent? {
        bindings.first { $0.keys.contains(key) && Self.belongs($0.intent, to: mode) }?.intent
    }

    /// The bindings that do something now, in table order: the footer's content. The start key reads
    /// "retry" after a failed publish and "reconnect" while a broadcast is under way; `d` reads "dismiss"
    /// while Siri is up; the link key says
    /// what it will do, and the cap key the cap it will set.
    public func available(in context: KeyContext) -> [KeyBinding] {
        bindings.filter { isAvailable($0.intent, in: context) }.map { binding in
            var labelled = binding
            switch binding.intent {
            case .command(.publisher(.start)):
                if case .error = context.publisherStatus { labelled.label = "retry" }
                if context.publisherStatus?.isBroadcasting == true { labelled.label = "reconnect" }
            case .command(.phone(.decline)):
                // While Siri is up, `d` dismisses it: there is no call to decline.
                let refusal = context.focus == .publisher
                    ? context.targets.publisher?.refusals[.operator(.accept)] : context.targets.subscriber?.refusals[.accept]
                if refusal == LifecycleSimulator.siriIsUpRefusal { labelled.label = "dismiss" }
            case .toggleLink:
                labelled.label = context.link?.isUp == false ? "link up" : "link down"
            case .toggleDevice(let device):
                labelled.label = String(context.deviceCommand(for: device).rawValue.map { $0 == "-" ? " " : $0 })
            case .cycleLinkCap:
                if case let .cap(rate)? = context.linkCommand(for: .cycleLinkCap) {
                    labelled.label = "cap " + LinkCommand.rateText(rate)
                } else {
                    labelled.label = "uncap"
                }
            default:
                break
            }
            return labelled
        }
    }

    /// The bindings the help overlay lists (everything used outside a confirmation).
    public var helpBindings: [KeyBinding] {
        bindings.filter { Self.belongs($0.intent, to: .normal) }
    }

    /// Whether an intent does something in `context`.
    public func isAvailable(_ intent: ConsoleIntent, in context: KeyContext) -> Bool {
        guard Self.belongs(intent, to: context.mode) else { return false }
        switch context.mode {
        case .confirmingQuit: return true
        case .help: return intent == .toggleHelp || intent == .quit
        case .normal: break
        }
        if intent.reachesCore { return context.refusal(of: intent) == nil }
        switch intent {
        case .scrollLog(let up):
            // Back while there is older history to see; forward only once scrolled back.
            return up ? context.logScroll < context.logScrollLimit : context.logScroll > 0
        case .switchPane:
            return context.paneCount > 1
        case .focusNextOutput, .toggleFocusedOutput:
            // The owner acts on these when the broadcast has several outputs; with one they do nothing.
            return context.targets.outputCount > 1
        default:
            return true
        }
    }

    /// Confirmation answers only exist in the confirmation; everything else only outside it.
    static func belongs(_ intent: ConsoleIntent, to mode: ConsoleMode) -> Bool {
        switch intent {
        case .confirm: mode == .confirmingQuit
        case .cancel: mode != .normal
        default: mode != .confirmingQuit
        }
    }
}
