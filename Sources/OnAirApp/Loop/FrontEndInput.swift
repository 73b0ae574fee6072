import OnAirConsole
import OnAirControl
import OnAirCore

/// Everything the one loop of a front end receives (docs/conventions.md §8), whichever front end it is:
/// console or headless, `publish`, `subscribe` or `demo`, with or without a scenario.
enum FrontEndInput: Sendable {
    /// What the publisher's or the subscriber's own work reports (network, timers).
    case publisher(PublisherInput)
    case subscriber(SubscriberInput)
    /// An operator command from a stdin line or a scenario's `press` (a key comes as `.terminal` and
    /// becomes one through the key table).
    case command(OperatorCommand)
    /// A stdin line that is no command (`unknown command '…'`), or a known one with a bad value, and why.
    case unknownCommand(String)
    case badCommand(String)
    /// The console's terminal: a key, a resize, a stop request (Ctrl-C, SIGTERM).
    case terminal(TerminalEvent)
    /// An event from a task outside the loop (the link stage, ABR) for `--log` and a scenario's observer.
    case event(OnAirEvent)
    /// A line at the foot of the console (a scenario's step).
    case notice(String)
    /// The front end's tick; `second` about once a second, when the subscriber's watchdog runs and the
    /// `stats` are read.
    case tick(second: Bool)
    /// End cleanly: `--duration`, a signal, the end of a scenario.
    case quit(reason: String)
}
