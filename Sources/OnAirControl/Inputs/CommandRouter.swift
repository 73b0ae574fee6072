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

    public init(publisher: PublisherController?, subscriber: SubscriberController?) {
        self.publisher = publisher
        self.subscriber = subscriber
    }

    /// The sides and their link stages as they are now.
    public var targets: CommandTargets {
        CommandTargets(publisher: publisher?.state, subscriber: subscriber?.state, publisherLink: publisher?.link, subscriberLink: subscriber?.link?.state,
                       hasRelay: server != nil)
    }

    /// Performs `command`; returns why it did nothing (the line stdin and scenarios report), nil when it
    /// acted. A refused gesture or control still reaches its session, which logs and toasts the refusal
    /// itself; a refused link command or a command for a side that is not there goes nowhere.
    public func perform(_ command: OperatorCommand) -> String? {
        let targets = targets
        let refusal = command.refusalMessage(in: targets)
        let side = command.side(in: targets)
        switch command {
        case .phone(let action) where side == .publisher:
            publisher?.handle(.event(.operator(action)))
        case .phone(let action), .subscriberPhone(let action):
            subscriber?.handle(.event(.operator(action)))
        case .publisher(let control):
            publisher?.handle(.event(.control(control)))
        case .subscriber(let control):
            subscriber?.handle(.event(.control(control)))
        case .link(let link) where refusal == nil:
            publisher?.apply(link)
        case .subscriberLink(let link) where refusal == nil:
            subscriber?.apply(link)
        case .link, .subscriberLink, .quit:
            break
        case .server(let command):
            if refusal == nil { server?(command) }
        case .device(let device) where refusal == nil:
            publisher?.apply(device)
        case .device:
            break
        }
        return refusal
    }
}
