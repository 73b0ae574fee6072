import OnAirCore

/// Where every operator command goes, whichever way it came (a console key through `KeyMap`, a stdin line,
/// a scenario's `press`): the core's one rule says whether it acts (`OperatorCommand.refusal(in:)`), and
/// the command reaches the side it names. Console, headless and scenario front ends share this one path.
public final class CommandRouter {
    public let publisher: PublisherController?
    public let subscriber: SubscriberController?
    /// Performs a server command on the demo's embedded relay; nil where there is none (`--server`,
    /// `onair publish`/`subscribe`), and the server commands are then refused with the reason.
    public var server: (@Sendable (ServerCommand) -> Void)?
    /// The server commands on the embedded relays of outputs 2…N (`server-stall 30s 2`), by output: the demo
    /// runs one for each further destination it was given no `--server` for.
    public var outputServers: [Int: @Sendable (ServerCommand) -> Void] = [:]

    public init(publisher: PublisherController?, subscriber: SubscriberController?) {
        self.publisher = publisher
        self.subscriber = subscriber
    }

    /// The sides and their link stages as they are now.
    public var targets: CommandTargets {
        var targets = CommandTargets(
            publisher: publisher?.state, subscriber: subscriber?.state, publisherLink: publisher?.link, subscriberLink: subscriber?.link?.state,
            hasRelay: server != nil)
        if let outputs = publisher?.outputs {
            targets.outputCount = 1 + outputs.outputs.count
            targets.outputRefusals = outputs.reconnectRefusals
            targets.outputControlRefusals = outputs.controlRefusals
        }
        targets.relayOutputs = Set(outputServers.keys).union(server == nil ? [] : [1])
        return targets
    }

    /// The one gate: performs `command`, whichever way it came (a console key, a stdin line, a scenario's
    /// `press`), and returns why it did nothing — the message every front end shows alike (the console's
    /// footer; headless and `--log`, an `error` event) — or nil when it acted. The core's rule is read once
    /// here; a refused command goes to the session of its side as `.refused`, which records it as every
    /// refusal is (`CommandRefusal`: the event log and a toast), and reaches nothing else.
    public func perform(_ command: OperatorCommand) -> String? {
        let targets = targets
        let side = command.side(in: targets)
        if let reason = command.refusal(in: targets) {
            record(CommandRefusal(asked: command.asked, reason: reason), side: side)
            return command.refusalMessage(for: reason, in: targets)
        }
        act(command, side: side)
        return nil
    }

    /// A refusal in the log of the side it names; a server command's in the publisher's (the subscriber's
    /// without one). A side that is not there has no log: the message alone says it.
    private func record(_ refusal: CommandRefusal, side: OperatorCommand.Side) {
        switch side {
        case .publisher: publisher?.handle(.event(.refused(refusal)))
        case .subscriber: subscriber?.handle(.event(.refused(refusal)))
        case .frontEnd:
            if let publisher { publisher.handle(.event(.refused(refusal))) } else { subscriber?.handle(.event(.refused(refusal))) }
        }
    }

    /// Sends an allowed command to the side it names.
    private func act(_ command: OperatorCommand, side: OperatorCommand.Side) {
        switch command {
        case .phone(let action) where side == .publisher:
            publisher?.handle(.event(.operator(action)))
        case .phone(let action), .subscriberPhone(let action):
            subscriber?.handle(.event(.operator(action)))
        case .publisher(let control):
            publisher?.handle(.event(.control(control)))
        case .subscriber(let control):
            subscriber?.handle(.event(.control(control)))
        case .link(let link):
            publisher?.apply(link)
        case .subscriberLink(let link):
            subscriber?.apply(link)
        case .quit:
            break
        case .server(let command):
            server?(command)
        case .device(let device):
            publisher?.apply(device)
        case .reconnectOutput(1):
            publisher?.handle(.event(.control(.start(nil))))
        case .reconnectOutput(let index):
            _ = publisher?.outputs?.reconnectNow(index)
        case .outputServer(let command, let output):
            outputServers[output]?(command)
        case .outputControl(let control, let output):
            publisher?.outputs?.perform(control, on: output)
        case .outputLink:
            break   // always refused by the rule: the link stage stands in front of output 1 only
        }
    }
}
