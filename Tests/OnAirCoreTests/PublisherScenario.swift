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
    @discardableResult
    func run(sourceLocation: SourceLocation = #_sourceLocation) -> PublisherSession {
        var session = PublisherSession(configuration: configuration)
        for (index, step) in steps.enumerated() {
            let actions = session.handle(step.event, at: SessionTime(milliseconds: step.time))
            #expect(actions == step.actions, "step \(index) (\(step.event))", sourceLocation: sourceLocation)
            #expect(session.state.status == step.status, "step \(index) (\(step.event))", sourceLocation: sourceLocation)
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
