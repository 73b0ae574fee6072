/// The sides an operator command can reach, as they are now: what the one rule reads. A side that is not
/// there (`onair publish` has no subscriber) is nil, and so is a link stage that is not there.
public struct CommandTargets: Sendable, Equatable {
    public var publisher: PublisherAppState?
    public var subscriber: SubscriberAppState?
    public var publisherLink: LinkImpairmentState?
    public var subscriberLink: LinkImpairmentState?
    /// Whether the demo's embedded relay is there for the server commands (`ServerCommand`).
    public var hasRelay: Bool
    /// How many destinations the broadcast has (`onair publish URL URL …`; 1 with one URL): `reconnect N`
    /// names one of 1…outputCount.
    public var outputCount = 1
    /// Why `reconnect N` does nothing now for outputs 2…N that refuse it (`OutputLink.reconnectRefusal`);
    /// output 1 follows the publisher's own rule for `start`.
    public var outputRefusals: [Int: String] = [:]
    /// The outputs whose server is one of the demo's embedded relays, for the server commands that name an
    /// output (`server-stall 30s 2`); output 1's is there whenever `hasRelay` is.
    public var relayOutputs: Set<Int> = []
    /// Why `output-stop N` / `output-start N` does nothing now, for the outputs 2…N that refuse it.
    public var outputControlRefusals: [OutputControl: [Int: String]] = [:]

    public init(
        publisher: PublisherAppState? = nil, subscriber: SubscriberAppState? = nil,
        publisherLink: LinkImpairmentState? = nil, subscriberLink: LinkImpairmentState? = nil, hasRelay: Bool = false
    ) {
        self.publisher = publisher
        self.subscriber = subscriber
        self.publisherLink = publisherLink
        self.subscriberLink = subscriberLink
        self.hasRelay = hasRelay
    }
}

/// The one rule that says whether an operator command does something now, whichever way it came: the
/// console's footer, help overlay and key notices, headless stdin and scenario presses all ask it. It reads
/// the sessions' own rule (`PublisherSession.refusal(of:)` and `SubscriberSession.refusal(of:)`, published
/// in their states' `refusals`) and the link rule (`LinkCommand.refusal(stage:)`), and adds only which side
/// a command is for.
extension OperatorCommand {
    /// The side a command acts on, given which sides are there.
    public enum Side: Sendable, Equatable {
        case publisher
        case subscriber
        /// `quit`: the front end itself.
        case frontEnd
    }

    /// Where the command goes: plain phone gestures go to the publisher, or to the subscriber when there is
    /// no publisher (`onair subscribe`); `sub …` and the subscriber's controls to the subscriber.
    public func side(in targets: CommandTargets) -> Side {
        switch self {
        case .phone: targets.publisher == nil && targets.subscriber != nil ? .subscriber : .publisher
        case .publisher, .link: .publisher
        case .subscriber, .subscriberPhone, .subscriberLink: .subscriber
        case .quit, .server, .outputServer: .frontEnd
        case .device, .reconnectOutput, .outputControl, .outputLink: .publisher
        }
    }

    /// The same command on the subscriber's phone (`home` → `sub home`); nil for a publisher control,
    /// which has no subscriber counterpart. The console's keys on the subscriber pane go through this.
    public var onSubscriber: OperatorCommand? {
        switch self {
        case .phone(let action), .subscriberPhone(let action): .subscriberPhone(action)
        case .link(let command), .subscriberLink(let command): .subscriberLink(command)
        case .subscriber, .quit, .server, .outputServer: self
        case .publisher, .device, .reconnectOutput, .outputControl, .outputLink: nil
        }
    }

    /// The publisher command (gesture or control) this is, as the publisher session's rule names it.
    public var publisherCommand: PublisherCommand? {
        switch self {
        case .phone(let action): .operator(action)
        // Every start is refused or accepted alike, whatever its type: the rule keys it as `start`.
        case .publisher(.start): .control(.start(nil))
        case .publisher(let control): .control(control)
        case .subscriber, .subscriberPhone, .subscriberLink, .link, .quit, .server, .device, .reconnectOutput, .outputServer, .outputControl, .outputLink: nil
        }
    }

    /// Why the command would do nothing now, or nil when it acts: the bare reason, as the sessions and the
    /// link stage give it (`nothing to decline: …`, `link-down: no link stage here …`).
    public func refusal(in targets: CommandTargets) -> String? {
        switch side(in: targets) {
        case .frontEnd:
            if case .server(let command) = self { return command.refusal(hasRelay: targets.hasRelay) }
            if case .outputServer(let command, let output) = self {
                return command.refusal(output: output, outputCount: targets.outputCount, relayOutputs: targets.relayOutputs)
            }
            return nil
        case .publisher:
            guard let publisher = targets.publisher else { return "that is a publisher command" }
            if case .link(let command) = self { return command.refusal(stage: targets.publisherLink) }
            if case .reconnectOutput(let index) = self { return Self.outputRefusal(index, publisher: publisher, in: targets) }
            if case .outputControl(let control, let index) = self { return Self.outputControlRefusal(control, index, in: targets) }
            if case .outputLink(let command, let index) = self {
                return LinkCommand.refusal(output: index, outputCount: targets.outputCount, word: command.text)
            }
            return publisherCommand.flatMap { publisher.refusals[$0] }
        case .subscriber:
            guard let subscriber = targets.subscriber else { return "that is a subscriber command" }
            switch self {
            case .phone(let action), .subscriberPhone(let action): return subscriber.refusals[action]
            case .subscriberLink(let command): return command.refusal(stage: targets.subscriberLink)
            default: return nil
            }
        }
    }

    /// The refusal as headless stdin and a scenario report it: the command's name, then the reason
    /// (`home: Home only leaves an active app …`, `sub link-down: no link stage here …`).
    public func refusalMessage(in targets: CommandTargets) -> String? {
        refusal(in: targets).map { refusalMessage(for: $0, in: targets) }
    }

    /// `reason` (this command's refusal in `targets`) as a message.
    public func refusalMessage(for reason: String, in targets: CommandTargets) -> String {
        switch self {
        case .server, .outputServer: return reason      // the server rule's reason starts with the word
        default: break
        }
        if side(in: targets) == .publisher ? targets.publisher == nil : targets.subscriber == nil { return reason }
        switch self {
        // The link rule's reason already starts with the command's word.
        case .link: return reason
        case .subscriberLink: return "sub \(reason)"
        default: return "\(name): \(reason)"
        }
    }

    /// What was asked, as a side's event log records a refusal of it (`CommandRefusal`): `key decline`,
    /// `control stop`, `key link-down`.
    public var asked: String {
        switch self {
        case .phone(let action), .subscriberPhone(let action): "key \(action.rawValue)"
        case .publisher(let control): "control \(control)"
        case .subscriber(let control): "control \(control.rawValue)"
        case .link, .subscriberLink, .quit, .server, .device, .reconnectOutput, .outputServer, .outputControl, .outputLink: "key \(name)"
        }
    }

    /// `reconnect N`'s rule: N must be one of the broadcast's outputs; output 1 is the publisher's own
    /// connection (its `start` rule: reconnect now while a broadcast is under way), the others their own.
    static func outputRefusal(_ index: Int, publisher: PublisherAppState, in targets: CommandTargets) -> String? {
        guard (1...max(1, targets.outputCount)).contains(index) else {
            let count = max(1, targets.outputCount)
            return count == 1 ? "no output \(index): this broadcast has one output (give more URLs to publish to several)"
                : "no output \(index): this broadcast has outputs 1…\(count)"
        }
        if index == 1 { return publisher.refusals[.control(.start(nil))] }
        return targets.outputRefusals[index]
    }

    /// `output-stop N` / `output-start N`'s rule: N must be one of outputs 2…N (output 1 is the publisher's own
    /// connection, stopped and started with the broadcast: `x` and `r`), then the output's own state.
    static func outputControlRefusal(_ control: OutputControl, _ index: Int, in targets: CommandTargets) -> String? {
        let count = max(1, targets.outputCount)
        guard (1...count).contains(index) else {
            return count == 1 ? "no output \(index): this broadcast has one output (give more URLs to publish to several)"
                : "no output \(index): this broadcast has outputs 1…\(count)"
        }
        if index == 1 {
            return "output 1 is the publisher's own connection: it stops and starts with the broadcast (x stops it, r starts it)"
        }
        return targets.outputControlRefusals[control]?[index]
    }
}
