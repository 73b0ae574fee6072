import OnAirControl
import OnAirCore

/// One side (publisher or subscriber) as the headless loop drives it.
protocol HeadlessSide: AnyObject {
    associatedtype Input: Sendable

    /// The command name shown in messages (`publish`, `subscribe`, `demo`).
    var commandName: String { get }
    func handle(_ input: Input) async
    /// Where stdin commands go: the one path console keys and scenario presses take too.
    var commands: CommandRouter { get }
    /// Once a second, before the `stats` events are read: housekeeping such as the stall watchdog.
    func tick() async
    /// The `stats` events (README, "Headless output"), one per side.
    func statsEvents(at now: SessionTime) -> [HeadlessEvent]
    /// What the side has to say since the last turn: log lines, toasts, state, stream announcements.
    func report(at now: SessionTime) -> [HeadlessEvent]
    /// A failure that ends the run, in one line; nil while all is well.
    var failure: String? { get }
    func shutdown() async
}

/// The loop every headless front end runs (CONVENTIONS.md §8): inputs from the side's own work, stdin
/// commands, ticks and quit requests are applied one at a time, and what changed is printed after each.
enum HeadlessLoop {
    static func run<Side: HeadlessSide>(
        _ side: Side,
        inputs: HeadlessInputStream<Side.Input>,
        writer: JSONLinesWriter,
        clock: SessionClock
    ) async throws {
        var failure: FrontEndExit?
        loop: for await input in inputs.stream {
            switch input {
            case .side(let event):
                await side.handle(event)
            case .command(.quit):
                break loop
            case .command(let command):
                if let refusal = await side.commands.perform(command) {
                    writer.write(HeadlessEvent(time: clock.now, side: .app, kind: "error", details: ["text": .string(refusal)]))
                }
            case .unknownCommand(let line):
                writer.write(HeadlessEvent(time: clock.now, side: .app, kind: "error", details: [
                    "text": .string("unknown command '\(line)'; commands: \(OperatorCommand.names.joined(separator: ", "))"),
                ]))
            case .badCommand(let reason):
                writer.write(HeadlessEvent(time: clock.now, side: .app, kind: "error", details: ["text": .string(reason)]))
            case .tick:
                await side.tick()
                side.statsEvents(at: clock.now).forEach(writer.write)
            case .quit(let reason):
                writer.write(HeadlessEvent(time: clock.now, side: .app, kind: "quit", details: ["reason": .string(reason)]))
                break loop
            }
            side.report(at: clock.now).forEach(writer.write)
            if let message = side.failure {
                failure = FrontEndExit(code: 1, message: "onair \(side.commandName): \(message)")
                break loop
            }
        }
        inputs.finish()
        await side.shutdown()
        for event in side.statsEvents(at: clock.now) {
            writer.write(HeadlessEvent(time: clock.now, side: .app, kind: "stopped", details: event.details.merging(["side": .string(event.side.rawValue)]) { old, _ in old }))
        }
        if let failure { throw failure }
    }
}

/// The publisher as a headless side.
final class HeadlessPublisher: HeadlessSide {
    let controller: PublisherController
    private var reporter = HeadlessReporter(side: .publisher)
    var commandName: String { "publish" }

    let commands: CommandRouter

    init(_ controller: PublisherController) {
        self.controller = controller
        commands = CommandRouter(publisher: controller, subscriber: nil)
    }

    func handle(_ input: PublisherInput) async { controller.handle(input) }

    func tick() async { controller.tick() }

    func statsEvents(at now: SessionTime) -> [HeadlessEvent] {
        [HeadlessEvent(time: now, side: .publisher, kind: "stats", details: controller.headlessStats)]
    }

    func report(at now: SessionTime) -> [HeadlessEvent] {
        let state = controller.state
        return reporter.report(log: state.log, toasts: state.toasts, summary: state.headlessSummary, at: now)
    }

    var failure: String? {
        if case .error(let message) = controller.state.status { return message }
        return nil
    }

    func shutdown() async { await controller.shutdown() }
}

/// The subscriber as a headless side.
final class HeadlessSubscriber: HeadlessSide {
    let controller: SubscriberController
    private var reporter = HeadlessReporter(side: .subscriber)
    var commandName: String { "subscribe" }

    let commands: CommandRouter

    init(_ controller: SubscriberController) {
        self.controller = controller
        commands = CommandRouter(publisher: nil, subscriber: controller)
    }

    func handle(_ input: SubscriberInput) async { await controller.handle(input) }

    func tick() async { await controller.handle(.tick) }

    func statsEvents(at now: SessionTime) -> [HeadlessEvent] {
        [HeadlessEvent(time: now, side: .subscriber, kind: "stats", details: controller.headlessStats)]
    }

    func report(at now: SessionTime) -> [HeadlessEvent] {
        let notices = controller.takeNotices().map { HeadlessEvent(time: now, side: .subscriber, kind: $0.kind, details: $0.details) }
        let state = controller.state
        return notices + reporter.report(log: state.log, toasts: state.toasts, summary: state.headlessSummary, at: now)
    }

    var failure: String? {
        if case .error(let message) = controller.state.connection { return message }
        return nil
    }

    func shutdown() async { await controller.shutdown() }
}
