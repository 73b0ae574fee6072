import OnAirCore

/// Everything the key table needs to know to say whether a key does something now.
///
/// Whether a key that gives an operator command does anything is the core's one rule
/// (`OperatorCommand.refusal(in:)`, which stdin and scenario presses ask too), read here for the command
/// the key gives on the focused pane; the console decides only about its own keys (help, preview, panes,
/// quit).
public struct KeyContext: Sendable, Equatable {
    public var mode: ConsoleMode
    /// The pane the keys go to.
    public var focus: ConsolePane
    public var paneCount: Int
    /// The sides and their link stages as they are now: what the core's rule reads.
    public var targets: CommandTargets
    /// How many of the newest entries of the focused pane's event log are scrolled out of view, and at
    /// most how many can be (the entries that do not fit on screen).
    public var logScroll: Int = 0
    public var logScrollLimit: Int = 0
    /// The devices the operator has taken away (`C`, `A`): what those keys give back next.
    public var devicesTaken: Set<CaptureDevice> = []

    /// The key context of a pane; `link` is the focused pane's link impairment stage (nil: none).
    public init(
        mode: ConsoleMode = .normal, focus: ConsolePane, paneCount: Int, publisher: PublisherAppState?, subscriber: SubscriberAppState?,
        link: LinkImpairmentState? = nil
    ) {
        self.init(mode: mode, focus: focus, paneCount: paneCount, targets: CommandTargets(
            publisher: publisher, subscriber: subscriber,
            publisherLink: focus == .publisher ? link : nil, subscriberLink: focus == .subscriber ? link : nil))
    }

    public init(mode: ConsoleMode = .normal, focus: ConsolePane, paneCount: Int, targets: CommandTargets) {
        self.mode = mode
        self.focus = focus
        self.paneCount = paneCount
        self.targets = targets
    }

    /// The publisher's status when the publisher pane has focus; nil for the subscriber.
    public var publisherStatus: PublisherStatus? { focus == .publisher ? targets.publisher?.status : nil }

    /// The focused pane's link impairment stage, nil when it has none.
    public var link: LinkImpairmentState? { focus == .publisher ? targets.publisherLink : targets.subscriberLink }

    /// The operator command a key's intent gives now on the focused pane: `w` downs an up link and raises
    /// a down one, `k` takes the next cap preset; on the subscriber pane gestures and link commands go to
    /// the subscriber's phone. Nil for the console's own keys, and for a publisher control on the
    /// subscriber pane.
    public func command(for intent: ConsoleIntent) -> OperatorCommand? {
        let command: OperatorCommand
        switch intent {
        case .command(let given): command = given
        case .toggleLink, .cycleLinkCap: command = .link(linkCommand(for: intent) ?? .down)
        case .toggleDevice(let device): command = .device(deviceCommand(for: device))
        default: return nil
        }
        return focus == .publisher ? command : command.onSubscriber
    }

    /// The device command `C` or `A` gives now: lost while the device is there, back once taken.
    public func deviceCommand(for device: CaptureDevice) -> DeviceCommand {
        let taken = devicesTaken.contains(device)
        switch device {
        case .camera: return taken ? .cameraBack : .cameraLost
        case .microphone: return taken ? .micBack : .micLost
        }
    }

    /// The link command a link key gives now.
    public func linkCommand(for intent: ConsoleIntent) -> LinkCommand? {
        switch intent {
        case .toggleLink: (link?.isUp ?? true) ? .down : .up
        case .command(.link(let command)): command
        case .cycleLinkCap: LinkCommand.nextCapPreset(after: link?.capBitsPerSecond)
        default: nil
        }
    }

    /// Why a key that gives an operator command would do nothing now (the core's reason), or nil when it
    /// acts; nil as well for the console's own keys.
    public func refusal(of intent: ConsoleIntent) -> String? {
        guard intent.reachesCore else { return nil }
        guard let command = command(for: intent) else { return "a publisher key (Tab to switch)" }
        return command.refusal(in: targets)
    }
}
