import OnAirCore
import Testing

/// One row of a publisher scenario: at `time` ms the owner feeds `event`; the session must do exactly
/// `actions`, in the seed's words, and show `status`. The owner's calls are what `handle` returns; the
/// display calls (`toast`, `preview`, `armTap`, `disarmTap`) are read off the session's state.
struct PublisherStep: Sendable {
    let time: Int64
    let event: PublisherEvent
    let actions: [PublisherAction]
    let status: PublisherStatus

    init(_ time: Int64, _ event: PublisherEvent, _ actions: [PublisherAction], _ status: PublisherStatus) {
        self.time = time
        self.event = event
        self.actions = actions
        self.status = status
    }
}

extension PublisherStep {
    /// The operator's command of the row, if it is one (the session may refuse it, with a toast saying why).
    var command: PublisherCommand? {
        switch event {
        case .operator(let action): .operator(action)
        case .control(let control): .control(control)
        case .network, .timerFired, .wire, .engine, .refused: nil
        }
    }

    /// The row's display calls, as the dashboard shows them: every toast posted (in order, after the
    /// refusal's if the command was refused), the tap armed or not after the last arming call, the
    /// preview on or off after the last preview call.
    func expectDisplay(
        of session: PublisherSession, postedAfter toastsBefore: Int, refusal: String?,
        _ comment: Comment, _ sourceLocation: SourceLocation
    ) {
        var toasts: [String] = refusal.map { [$0] } ?? []
        var tapArmed: Bool?
        var previewOn: Bool?
        for action in actions {
            switch action {
            case .toast(let text): toasts.append(text)
            case .armTap: tapArmed = true
            case .disarmTap: tapArmed = false
            case .preview(let on): previewOn = on
            default: break
            }
        }
        #expect(session.state.toasts.toasts(after: toastsBefore).map(\.text) == toasts, comment, sourceLocation: sourceLocation)
        if let tapArmed { #expect(session.state.tapArmed == tapArmed, comment, sourceLocation: sourceLocation) }
        if let previewOn { #expect(session.previewOn == previewOn, comment, sourceLocation: sourceLocation) }
    }
}

/// A named table of steps, run against a fresh `PublisherSession`.
struct PublisherScenario: Sendable, CustomTestStringConvertible {
    let name: String
    let configuration: PublisherConfiguration
    let steps: [PublisherStep]

    init(_ name: String, policy: PublisherPolicyKind, reconnect: ReconnectPolicy = ReconnectPolicy(jitterUnit: 0), steps: [PublisherStep]) {
        self.name = name
        self.configuration = PublisherConfiguration(
            streamName: stream, redactedURL: "rtmp://127.0.0.1/live/***", policy: policy, reconnect: reconnect
        )
        self.steps = steps
    }

    var testDescription: String { name }

    /// Runs every step, checking actions and status; returns the session for further checks.
    ///
    /// The tables are in the seeds' words, which know no send-stall watchdog: its timer's actions are
    /// left out of the comparison and checked instead after every step — running exactly while the
    /// connection is live (the tables report no wire progress, so no check waits for a report).
    @discardableResult
    func run(sourceLocation: SourceLocation = #_sourceLocation) -> PublisherSession {
        var session = PublisherSession(configuration: configuration)
        for (index, step) in steps.enumerated() {
            let toastsBefore = session.state.toasts.postedCount
            let refusal = step.command.flatMap(session.refusal(of:))
            let actions = session.handle(step.event, at: SessionTime(milliseconds: step.time)).filter { !$0.isSendStallTimer }
            #expect(actions == step.actions.filter(\.requiresOwner), "step \(index) (\(step.event))", sourceLocation: sourceLocation)
            step.expectDisplay(of: session, postedAfter: toastsBefore, refusal: refusal, "step \(index) (\(step.event))", sourceLocation)
            #expect(session.state.status == step.status, "step \(index) (\(step.event))", sourceLocation: sourceLocation)
            #expect(session.pendingTimers.contains(.sendStall) == session.connection.isLive,
                    "step \(index) (\(step.event)): the watchdog's timer runs exactly while live", sourceLocation: sourceLocation)
        }
        return session
    }
}

let stream = "cam"
let parameter = "streamName=cam"

// Shorthand for the tables.
func key(_ action: OperatorAction) -> PublisherEvent { .operator(action) }
let publishStarted = PublisherEvent.network(.publishStarted)
func lost(_ reason: String = "reset by peer") -> PublisherEvent { .network(.connectionLost(reason: reason)) }
func send(_ handler: String) -> PublisherAction { .send(handler: handler, parameter: parameter) }
func publish(_ type: PublishType) -> PublisherAction { .publish(name: stream, type: type) }

/// The Givens every scenario shares: "I have started a broadcast session".
func startedBroadcast(_ type: PublishType) -> [PublisherStep] {
    [
        PublisherStep(0, .control(.start(nil)), [publish(type)], .connecting),
        PublisherStep(100, publishStarted, [], .publishing),
    ]
}

extension PublisherAction {
    /// Starts or cancels the send-stall watchdog's timer.
    var isSendStallTimer: Bool {
        switch self {
        case .scheduleTimer(.sendStall, _), .cancelTimer(.sendStall): true
        default: false
        }
    }
}
