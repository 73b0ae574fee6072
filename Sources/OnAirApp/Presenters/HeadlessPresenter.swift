import OnAirConsole
import OnAirControl
import OnAirCore

/// `--headless`: what the one loop sees, printed as JSON Lines (README, "Headless output"): every event of
/// both sides after each turn, `stats` once a second, refusals and bad stdin lines as `error` events.
final class HeadlessPresenter: FrontEndPresenter {
    private let writer: JSONLinesWriter
    private let clock: SessionClock

    init(writer: JSONLinesWriter, clock: SessionClock) {
        self.writer = writer
        self.clock = clock
    }

    var reportsEvents: Bool { true }
    var endsOnFailure: Bool { true }

    /// Headless has no terminal.
    func command(for event: TerminalEvent, sides: FrontEndSides) -> OperatorCommand? { nil }

    func refused(_ message: String) {
        writer.write(OnAirEvent(time: clock.now, side: .app, .refused(message)))
    }

    func outside(_ event: OnAirEvent) {
        writer.write(event)
    }

    func notice(_ text: String) {
        writer.write(OnAirEvent(time: clock.now, side: .app, .notice(text)))
    }

    func ticked(_ sides: FrontEndSides, stats: [OnAirEvent], at now: SessionTime) {
        stats.forEach(writer.write)
    }

    func turnEnded(_ sides: FrontEndSides, reported: [OnAirEvent]) {
        reported.forEach(writer.write)
    }

    func quitting(_ reason: String) {
        writer.write(OnAirEvent(time: clock.now, side: .app, .quit(reason: reason)))
    }

    /// The sides' last figures, as `stopped` events of the app.
    func ended(stopped: [OnAirEvent]) {
        stopped.forEach(writer.write)
    }
}
