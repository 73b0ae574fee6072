import OnAirControl
import OnAirCore
import OnAirScenario

/// Plays a scenario's steps against a running demo: waits, presses keys through the same path as stdin
/// commands, and checks each expectation against what both sides have printed so far (polled every
/// ``pollInterval`` until it holds or its `within` runs out).
///
/// It runs as its own task beside the front end's loop and only talks to it through `send` and `quit`,
/// so the loop stays the one place state changes (docs/conventions.md §8).
struct ScenarioDriver: Sendable {
    /// The first expectation that did not hold.
    struct Failure: Error, Sendable, CustomStringConvertible {
        var source: String
        var line: Int
        var expectation: String
        var seen: String

        var description: String { "\(source):\(line): `\(expectation)` did not hold — saw \(seen)" }
    }

    /// What the driver tells the front end as it goes (headless: `expectation` events; console: notices).
    struct Callbacks: Sendable {
        var send: @Sendable (OperatorCommand) -> Void
        var quit: @Sendable (String) -> Void
        var step: @Sendable (ScenarioStep) -> Void = { _ in }
        var checked: @Sendable (ScenarioExpectation, ScenarioVerdict, Duration) -> Void = { _, _, _ in }
    }

    static let pollInterval: Duration = .milliseconds(100)

    let file: ScenarioFile
    let observer: ScenarioObserver
    let clock: SessionClock
    let recordings: RecordingInspector

    /// Starts the steps; the task's value is the first failure, or nil when every expectation held.
    func start(_ callbacks: Callbacks) -> Task<Failure?, Never> {
        Task {
            let failure = await run(callbacks)
            callbacks.quit(failure == nil ? "scenario finished" : "scenario failed")
            return failure
        }
    }

    private func run(_ callbacks: Callbacks) async -> Failure? {
        for step in file.scenario.steps {
            callbacks.step(step)
            switch step.action {
            case .wait(let duration):
                do {
                    try await Task.sleep(for: duration)
                } catch {
                    return stopped(at: step)
                }
            case .press(let command, let typed):
                observer.recordPress(command, typed: typed, line: step.line, at: clock.now.milliseconds)
                callbacks.send(command)
            case .expect(let expectation):
                if let failure = await check(expectation, callbacks) { return failure }
            }
        }
        return nil
    }

    private func check(_ expectation: ScenarioExpectation, _ callbacks: Callbacks) async -> Failure? {
        let started = ContinuousClock.now
        let condition = observer.begin(expectation, at: clock.now.milliseconds)
        while true {
            let recording: RecordingSummary? =
                if case .recording(let name, _) = expectation.condition { recordings.summary(of: name) } else { nil }
            let verdict = observer.verdict(for: condition, recording: recording)
            let elapsed = ContinuousClock.now - started
            let waitsOut = expectation.waitsOut
            switch verdict {
            case .met where !waitsOut || elapsed >= expectation.within:
                callbacks.checked(expectation, verdict, elapsed)
                return nil
            case .broken(let seen):
                callbacks.checked(expectation, verdict, elapsed)
                return Failure(source: file.scenario.source, line: expectation.line, expectation: expectation.text, seen: seen)
            case .unmet(let seen) where elapsed >= expectation.within:
                callbacks.checked(expectation, verdict, elapsed)
                return Failure(source: file.scenario.source, line: expectation.line, expectation: expectation.text, seen: seen)
            case .met, .unmet:
                do {
                    try await Task.sleep(for: Self.pollInterval)
                } catch {
                    return Failure(source: file.scenario.source, line: expectation.line, expectation: expectation.text, seen: "the demo stopped first")
                }
            }
        }
    }

    private func stopped(at step: ScenarioStep) -> Failure {
        Failure(source: file.scenario.source, line: step.line, expectation: "wait", seen: "the demo stopped first")
    }
}
