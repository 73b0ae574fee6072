/// What the operator can ask of the publisher — a phone gesture or a console control — as one value, so a
/// single rule (`PublisherSession.refusal(of:)`) says whether it does something now, for the console's
/// footer and help overlay, headless stdin and scenario presses alike.
public enum PublisherCommand: Sendable, Hashable {
    case `operator`(OperatorAction)
    case control(PublisherControl)

    /// Every command the operator can give, in the console's key order (`start` with the policy's type).
    public static let all: [PublisherCommand] =
        OperatorAction.allCases.map { .operator($0) }
        + [.control(.togglePauseVideo), .control(.togglePauseAudio), .control(.nextPolicy), .control(.stop), .control(.start(nil))]

    /// The event that carries the command into `PublisherSession.handle`.
    public var event: PublisherEvent {
        switch self {
        case .operator(let action): .operator(action)
        case .control(let control): .control(control)
        }
    }
}
