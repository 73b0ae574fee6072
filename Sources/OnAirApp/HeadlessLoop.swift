import OnAirCore

/// One side (publisher or subscriber) as the headless loop drives it.
protocol HeadlessSide: AnyObject {
    associatedtype Input: Sendable

    var side: HeadlessEvent.Side { get }
    /// The command name shown in messages (`publish`, `subscribe`).
    var commandName: String { get }
    func handle(_ input: Input) async
    /// Performs a stdin command; returns why it does not apply to this side, or nil when done.
    func perform(_ command: OperatorCommand) async -> String?
    /// Once a second, before `stats` is read: housekeeping such as the stall watchdog.
    func tick() async
    /// The `stats` event details (README, "Headless output").
    var stats: [String: JSONValue] { get }
    /// What the side has to say since the last turn: log lines, toasts, state, stream announcements.
    func report(into reporter: inout HeadlessReporter, at now: SessionTime) -> [HeadlessEvent]
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
        var reporter = HeadlessReporter(side: side.side)
        var failure: FrontEndExit?
        loop: for await input in inputs.stream {
            switch input {
            case .side(let event):
                await side.handle(event)
            case .command(.quit):
                break loop
            case .command(let command):
                if let refusal = await side.perform(command) {
                    writer.write(HeadlessEvent(time: clock.now, side: .app, kind: "error", details: ["text": .string(refusal)]))
                }
            case .unknownCommand(let line):
                writer.write(HeadlessEvent(time: clock.now, side: .app, kind: "error", details: [
                    "text": .string("unknown command '\(line)'; commands: \(OperatorCommand.names.joined(separator: ", "))"),
                ]))
            case .tick:
                await side.tick()
                writer.write(HeadlessEvent(time: clock.now, side: side.side, kind: "stats", details: side.stats))
            case .quit(let reason):
                writer.write(HeadlessEvent(time: clock.now, side: .app, kind: "quit", details: ["reason": .string(reason)]))
                break loop
            }
            side.report(into: &reporter, at: clock.now).forEach(writer.write)
            if let message = side.failure {
                failure = FrontEndExit(code: 1, message: "onair \(side.commandName): \(message)")
                break loop
            }
        }
        inputs.finish()
        await side.shutdown()
        writer.write(HeadlessEvent(time: clock.now, side: .app, kind: "stopped", details: side.stats))
        if let failure { throw failure }
    }
}

extension PublisherController: HeadlessSide {
    var side: HeadlessEvent.Side { .publisher }
    var commandName: String { "publish" }

    func perform(_ command: OperatorCommand) async -> String? {
        switch command {
        case .phone(let action): await handle(.event(.operator(action)))
        case .publisher(let control): await handle(.event(.control(control)))
        case .subscriber: return "play and stop-play are subscriber commands"
        case .quit: break
        }
        return nil
    }

    func tick() async {}

    var stats: [String: JSONValue] { engine.stats.headlessDetails }

    func report(into reporter: inout HeadlessReporter, at now: SessionTime) -> [HeadlessEvent] {
        reporter.report(log: state.log, toasts: state.toasts, summary: state.headlessSummary, at: now)
    }

    var failure: String? {
        if case .error(let message) = state.status { return message }
        return nil
    }
}

extension SubscriberController: HeadlessSide {
    var side: HeadlessEvent.Side { .subscriber }
    var commandName: String { "subscribe" }

    func perform(_ command: OperatorCommand) async -> String? {
        switch command {
        case .phone(let action): await handle(.event(.operator(action)))
        case .subscriber(let control): await handle(.event(.control(control)))
        case .publisher: return "that is a publisher command"
        case .quit: break
        }
        return nil
    }

    func tick() async {
        await handle(.tick)
    }

    var stats: [String: JSONValue] { headlessStats }

    func report(into reporter: inout HeadlessReporter, at now: SessionTime) -> [HeadlessEvent] {
        let notices = takeNotices().map { HeadlessEvent(time: now, side: .subscriber, kind: $0.kind, details: $0.details) }
        return notices + reporter.report(log: state.log, toasts: state.toasts, summary: state.headlessSummary, at: now)
    }

    var failure: String? {
        if case .error(let message) = state.connection { return message }
        return nil
    }
}
