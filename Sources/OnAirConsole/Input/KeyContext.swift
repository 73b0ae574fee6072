import OnAirCore

/// Everything the key table needs to know to say whether a key does something now.
///
/// Whether a key that reaches a state machine does anything is the core's one rule
/// (`PublisherSession.refusal(of:)`, `SubscriberSession.refusal(of:)`), read here from the focused pane's
/// `refusals`; the console decides only about its own keys (help, preview, panes, quit).
public struct KeyContext: Sendable, Equatable {
    public var mode: ConsoleMode
    /// The pane the keys go to.
    public var focus: ConsolePane
    public var paneCount: Int
    /// Why each key that reaches the focused pane's state machine would do nothing now; absent: it acts.
    public var refusals: [ConsoleIntent: String]
    /// The publisher's status when the publisher pane has focus; nil for the subscriber.
    public var publisherStatus: PublisherStatus?
    /// How many of the newest entries of the focused pane's event log are scrolled out of view, and at
    /// most how many can be (the entries that do not fit on screen).
    public var logScroll: Int
    public var logScrollLimit: Int
    /// The focused pane's link impairment stage, nil when it has none.
    public var link: LinkImpairmentState?

    public init(
        mode: ConsoleMode = .normal, focus: ConsolePane, paneCount: Int, refusals: [ConsoleIntent: String] = [:],
        publisherStatus: PublisherStatus?, logScroll: Int = 0, logScrollLimit: Int = 0
    ) {
        self.mode = mode
        self.focus = focus
        self.paneCount = paneCount
        self.refusals = refusals
        self.publisherStatus = publisherStatus
        self.logScroll = logScroll
        self.logScrollLimit = logScrollLimit
    }

    /// The key context of a pane, with the core's refusals mapped onto the console's intents.
    public init(
        mode: ConsoleMode = .normal, focus: ConsolePane, paneCount: Int, publisher: PublisherAppState?, subscriber: SubscriberAppState?,
        link: LinkImpairmentState? = nil
    ) {
        var refusals: [ConsoleIntent: String] = [:]
        switch focus {
        case .publisher:
            for (command, reason) in publisher?.refusals ?? [:] {
                if let intent = ConsoleIntent(command) { refusals[intent] = reason }
            }
        case .subscriber:
            for (action, reason) in subscriber?.refusals ?? [:] { refusals[.phone(action)] = reason }
            for command in PublisherCommand.all {
                guard case .control = command, let intent = ConsoleIntent(command) else { continue }
                refusals[intent] = "a publisher key (Tab to switch)"
            }
        }
        // The link keys act on the focused pane's own stage (the demo subscriber has its own phone), by the
        // core's rule for link commands: whenever a stage exists.
        for (intent, command) in [(ConsoleIntent.toggleLink, LinkCommand.down), (.handoff, .handoff(capBitsPerSecond: nil, delay: nil)), (.cycleLinkCap, .uncap)] {
            if let reason = command.refusal(stage: link) { refusals[intent] = reason }
        }
        self.init(mode: mode, focus: focus, paneCount: paneCount, refusals: refusals, publisherStatus: focus == .publisher ? publisher?.status : nil)
        self.link = link
    }

    /// The link command a link key gives now: `w` downs an up link and raises a down one, `k` takes the
    /// next cap preset.
    public func linkCommand(for intent: ConsoleIntent) -> LinkCommand? {
        switch intent {
        case .toggleLink: (link?.isUp ?? true) ? .down : .up
        case .handoff: .handoff(capBitsPerSecond: nil, delay: nil)
        case .cycleLinkCap: LinkCommand.nextCapPreset(after: link?.capBitsPerSecond)
        default: nil
        }
    }
}

extension ConsoleIntent {
    /// The console intent of a core command (nil for none: every command has one).
    public init?(_ command: PublisherCommand) {
        switch command {
        case .operator(let action): self = .phone(action)
        case .control(.togglePauseVideo): self = .togglePauseVideo
        case .control(.togglePauseAudio): self = .togglePauseAudio
        case .control(.nextPolicy): self = .nextPolicy
        case .control(.stop): self = .stopBroadcast
        case .control(.start): self = .startBroadcast
        }
    }

    /// True for keys whose legality is the core's rule, not the console's.
    var reachesCore: Bool {
        switch self {
        case .phone, .togglePauseVideo, .togglePauseAudio, .nextPolicy, .stopBroadcast, .startBroadcast, .toggleLink, .handoff, .cycleLinkCap: true
        case .togglePreview, .toggleHelp, .quit, .switchPane, .confirm, .cancel, .toggleLog, .scrollLog: false
        }
    }
}
