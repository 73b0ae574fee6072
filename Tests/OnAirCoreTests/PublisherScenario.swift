import OnAirCore
import Testing

/// One row of a publisher scenario: at `time` ms the owner feeds `event`; the session must return exactly
/// `actions` and show `status`.
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
            let actions = session.handle(step.event, at: SessionTime(milliseconds: step.time)).filter { !$0.isSendStallTimer }
            #expect(actions == step.actions, "step \(index) (\(step.event))", sourceLocation: sourceLocation)
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
