import OnAirConsole
import OnAirControl
import OnAirCore

/// What a front end shows, and nothing else: the one loop tells it what happened; it never touches a
/// session. The console draws a screen; headless prints JSON Lines.
protocol FrontEndPresenter: AnyObject {
    /// Whether the sides' new events are read after every turn (headless always; the console only with
    /// `--log` or a scenario to feed).
    var reportsEvents: Bool { get }
    /// Whether a failure of the sides ends the run at once (headless) or is left on screen for `r` (console).
    var endsOnFailure: Bool { get }
    /// A terminal event, as the console's key table reads it: the operator command it means, if any.
    func command(for event: TerminalEvent, sides: FrontEndSides) -> OperatorCommand?
    /// Why a command did nothing (or a stdin line that is none), shown alike whichever way it came.
    func refused(_ message: String)
    /// An event from outside the loop (the link stage, ABR).
    func outside(_ event: OnAirEvent)
    func notice(_ text: String)
    /// The tick's figures: `stats` once a second.
    func ticked(_ sides: FrontEndSides, stats: [OnAirEvent], at now: SessionTime)
    /// The end of a turn, with what the sides reported (empty unless `reportsEvents`).
    func turnEnded(_ sides: FrontEndSides, reported: [OnAirEvent])
    /// The run ends for `reason` (a quit input), before the sides shut down.
    func quitting(_ reason: String)
    /// After the sides shut down, with their last figures.
    func ended(stopped: [OnAirEvent])
}

/// The one loop of every front end (docs/conventions.md §8): console or headless, `publish`, `subscribe` or
/// `demo`, keys, stdin lines, scenario presses, network events, timers and ticks are applied one at a time,
/// each command through the core's one rule (`CommandRouter`), and the presenter shows what changed.
/// Nothing in a turn waits for the network: the controllers queue their sends and open and close
/// connections on tasks of their own; only the final shutdown is awaited.
enum FrontEndLoop {
    static func run(_ sides: FrontEndSides, inputs: FrontEndInputs, clock: SessionClock, presenter: some FrontEndPresenter) async throws {
        inputs.start()
        var failure: String?
        loop: for await input in inputs.stream {
            inputs.took(input)
            if let reason = inputs.pendingQuit {
                presenter.quitting(reason)
                break loop
            }
            switch input {
            case .publisher(let event):
                sides.publisher?.handle(event)
            case .subscriber(let event):
                sides.subscriber?.handle(event)
            case .command(.quit):
                // The README lists a `quit` event for every way out: a stdin `quit` too.
                presenter.quitting("quit command")
                break loop
            case .command(let command):
                if let refusal = sides.commands.perform(command) { presenter.refused(refusal) }
            case .unknownCommand(let line):
                presenter.refused("unknown command '\(ControlText.escaped(line))'; commands: \(OperatorCommand.names.joined(separator: ", "))")
            case .badCommand(let reason):
                presenter.refused(reason)
            case .terminal(let event):
                // A key's one result is a command, through the same gate as a stdin line's or a press's.
                switch presenter.command(for: event, sides: sides) {
                case nil: break
                case .quit?:
                    presenter.quitting(event == .stopRequested ? "signal" : "q key")
                    break loop
                case let command?:
                    if let refusal = sides.commands.perform(command) { presenter.refused(refusal) }
                }
            case .event(let event):
                presenter.outside(event)
            case .notice(let text):
                presenter.notice(text)
            case .tick(let second):
                let dropped = second ? inputs.takeDroppedSubscriberInputs() : 0
                if dropped > 0 {
                    presenter.outside(OnAirEvent(time: clock.now, side: .subscriber, .warning(
                        "the server sends faster than OnAir can take: dropped \(dropped) data and media inputs", dropped: dropped)))
                }
                sides.tick(second: second)
                presenter.ticked(sides, stats: second ? sides.statsEvents(at: clock.now) : [], at: clock.now)
            case .quit(let reason):
                presenter.quitting(reason)
                break loop
            }
            presenter.turnEnded(sides, reported: presenter.reportsEvents ? sides.report(at: clock.now) : [])
            if presenter.endsOnFailure, let message = sides.failure {
                failure = message
                break loop
            }
        }
        inputs.finish()
        await sides.shutdown()
        presenter.ended(stopped: sides.stoppedEvents(at: clock.now))
        // A run that ends on a failed publish exits 1 with the reason on stderr, console and headless alike.
        if let message = failure ?? sides.publisherFailure {
            throw FrontEndExit(code: 1, message: "onair \(sides.commandName): \(message)")
        }
    }
}
