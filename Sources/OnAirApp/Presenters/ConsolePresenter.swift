import Foundation
import OnAirConsole
import OnAirControl
import OnAirCore
import OnAirMedia
import OnAirTerminal

/// The console: what the one loop sees, drawn once per turn on the terminal (`onair publish` and
/// `onair subscribe` one pane each, `onair demo` both). Keys go through the key table
/// (`ConsoleUIState.handle`): a console-only change stays here; a key's one result, the operator command
/// it means, is what the loop routes.
final class ConsolePresenter: FrontEndPresenter {
    private let clock: SessionClock
    private var ui: ConsoleUIState
    private let theme: Theme
    /// `--color`, `NO_COLOR` and a colourless theme, decided once: see `ColorChoice.forcedMode`.
    private let colorMode: TerminalColorMode?
    /// How often the screen refreshes by itself.
    let tick: Duration
    /// Where the sides' events go as the console runs, in the headless schema (`--log FILE`, a scenario's
    /// observer), so both see exactly what a headless run sees.
    private var eventSinks: [@Sendable (OnAirEvent) -> Void] = []
    private var terminal: TerminalThread?
    /// Both sides' figures, built once per tick (the engine's latency percentiles are sorted under its
    /// queue's lock): a turn for a key, a network event or a subscriber input redraws the states with them.
    private var telemetry: (publisher: StreamTelemetry, subscriber: StreamTelemetry)?
    /// What the summary printed on exit reports.
    var summary = SessionSummary()

    init(clock: SessionClock, theme: Theme, previewFramesPerSecond: Double, color: ColorChoice = .auto) {
        self.clock = clock
        self.theme = theme
        colorMode = color.forcedMode(environment: ProcessInfo.processInfo.environment, themeDrawsColour: theme.drawsColour)
        ui = ConsoleUIState(showPreview: previewFramesPerSecond > 0)
        // The screen refreshes at the preview rate (capped for slow SSH links), at least twice a second
        // so the session timer and rates move.
        let rate = min(max(previewFramesPerSecond, 2), 30)
        tick = .milliseconds(Int64(1000 / rate))
    }

    /// A one-line notice at the foot of the screen (a missing camera replaced by the test pattern, …).
    func notice(_ text: String) {
        ui.notice = ConsoleUIState.Notice(text: text, postedAt: clock.now)
    }

    /// Plays a scenario on this console: what both sides show is reported to `observer`.
    func observeForScenario(_ observer: @escaping @Sendable (OnAirEvent) -> Void) {
        eventSinks.append(observer)
    }

    /// `--log FILE`: every event, in the headless schema, to `writer` as the console runs.
    func writeEvents(to writer: JSONLinesWriter) {
        eventSinks.append { writer.write($0) }
    }

    /// Runs the loop on the terminal until the operator quits or a signal arrives; the terminal is restored
    /// on every way out, and then the session summary is printed on stdout (time on air, bytes, reconnects,
    /// recordings). A run that ends on a failure prints it too, before the caller's one-line reason on
    /// stderr; a terminal that never started (refused, e.g. `TERM=dumb`) has no session to sum up.
    func run(_ sides: FrontEndSides, inputs: FrontEndInputs) async throws {
        // A codec the subscriber does not decode, or a server breaking the spec, shows at the foot of the screen.
        sides.subscriber?.showNotice = { [weak self] in self?.notice($0) }
        if sides.publisher == nil { ui.focus = .subscriber }
        let post = inputs.poster
        do {
            terminal = try TerminalThread(theme: theme, options: TerminalScreen.Options(colorMode: colorMode)) { post(.terminal($0)) }
        } catch {
            await sides.shutdown()
            throw FrontEndExit(code: 2, message: "onair: \(error)")
        }
        defer {
            terminal?.stop()
            let lines = summary.lines(at: clock.now)
            if !lines.isEmpty { FileHandle.standardOutput.write(Data((lines.joined(separator: "\n") + "\n").utf8)) }
        }
        terminal?.show(screen(sides))
        try await FrontEndLoop.run(sides, inputs: inputs, clock: clock, presenter: self)
    }

    var reportsEvents: Bool { !eventSinks.isEmpty }
    var endsOnFailure: Bool { false }

    func command(for event: TerminalEvent, sides: FrontEndSides) -> OperatorCommand? {
        telemetry = nil  // a key may toggle the preview or act on a side: its redraw reads the figures afresh
        switch event {
        case .key(let key):
            ui.link = sides.publisher?.link
            ui.subscriberLink = sides.subscriber?.link?.state
            ui.hasRelay = sides.commands.server != nil
            ui.devicesTaken = sides.publisher?.engine.devicesTaken ?? []
            if let command = outputKey(key, sides: sides) { return command }
            return ui.handle(key, publisher: sides.publisher?.state, subscriber: sides.subscriber?.state, now: clock.now)
        case .resize(_, let height):
            ui.screenHeight = height
            return nil
        case .stopRequested:
            return .quit
        }
    }

    /// A refused command says why at the foot of the screen, whichever way it came, and in `--log` as
    /// headless prints it.
    func refused(_ message: String) {
        notice(message)
        emit([OnAirEvent(time: clock.now, side: .app, .refused(message))])
    }

    func outside(_ event: OnAirEvent) {
        emit([event])
        if case .link(let state, let command, _) = event.kind {
            notice(command.map { "\($0): link \(state)" } ?? "link \(state)")
        }
    }

    func ticked(_ sides: FrontEndSides, stats: [OnAirEvent], at now: SessionTime) {
        telemetry = nil
        summary.observe(publisher: sides.publisher?.state, subscriber: sides.subscriber?.state, bytesSent: sides.publisher?.bytesOnWire, at: now)
        emit(stats)
    }

    func turnEnded(_ sides: FrontEndSides, reported: [OnAirEvent]) {
        emit(reported)
        terminal?.show(screen(sides))
    }

    /// `--log` holds what headless prints: the quit and its reason.
    func quitting(_ reason: String) {
        emit([OnAirEvent(time: clock.now, side: .app, .quit(reason: reason))])
    }

    /// The sides' last figures, as `stopped` events of the app (as headless).
    func ended(stopped: [OnAirEvent]) {
        emit(stopped)
    }

    /// An event only the log and a scenario's observer see (`started`, a setup `notice`).
    func log(_ event: OnAirEvent) {
        emit([event])
    }

    private func emit(_ events: [OnAirEvent]) {
        for event in events { eventSinks.forEach { $0(event) } }
    }

    private func screen(_ sides: FrontEndSides) -> ConsoleScreen {
        ui.link = sides.publisher?.link
        ui.subscriberLink = sides.subscriber?.link?.state
        ui.hasRelay = sides.commands.server != nil
        ui.devicesTaken = sides.publisher?.engine.devicesTaken ?? []
        let figures = telemetry ?? (
            publisher: sides.publisher.map { $0.telemetry(preview: ui.showPreview ? $0.engine.preview : nil) } ?? .none,
            subscriber: sides.subscriber?.telemetry ?? .none)
        telemetry = figures
        return ConsoleScreen(
            publisher: sides.publisher?.state,
            publisherTelemetry: figures.publisher,
            subscriber: sides.subscriber?.state,
            subscriberTelemetry: figures.subscriber,
            ui: ui,
            now: clock.now
        )
    }
}

extension ConsolePresenter {
    /// The output keys with several destinations (issue 30), on the publisher's pane: `]` moves the focus
    /// to the next output and says so, `X` stops or starts the focused one, `r` on outputs 2…N is
    /// `reconnect N` (on output 1 it stays the publisher's `r`), and the link keys there name output N. Each gives the very command stdin and
    /// scenarios give, decided by the one gate. Nil when the key is not one of these here.
    func outputKey(_ key: ConsoleKey, sides: FrontEndSides) -> OperatorCommand?? {
        guard let outputs = sides.publisher?.outputs, ui.mode == .normal,
              ui.keyContext(publisher: sides.publisher?.state, subscriber: sides.subscriber?.state).focus == .publisher
        else { return nil }
        switch KeyMap.standard.intent(for: key) {
        case .focusNextOutput:
            let focused = outputs.focusNext()
            notice(focused == 1 ? "output 1 has the keys: r and x act on the whole broadcast as before"
                : "output \(focused) has the keys: r reconnects it, X stops or starts it")
            telemetry = nil
            return .some(nil)
        case .toggleFocusedOutput:
            let focused = outputs.focusedOutput
            return .some(.outputControl(outputs.isStopped(focused) ? .start : .stop, output: focused))
        case ConsoleIntent.startBroadcast? where outputs.focusedOutput > 1:
            return .some(.reconnectOutput(outputs.focusedOutput))
        // The link keys name the focused output too: on outputs 2…N, which have no link stage, the gate
        // refuses them with that reason instead of the key acting on output 1 behind the operator's back.
        case ConsoleIntent.toggleLink? where outputs.focusedOutput > 1:
            return .some(.outputLink(.down, output: outputs.focusedOutput))
        case ConsoleIntent.cycleLinkCap? where outputs.focusedOutput > 1:
            return .some(.outputLink(.cap(bitsPerSecond: 2_500_000), output: outputs.focusedOutput))
        case .command(.link(let command))? where outputs.focusedOutput > 1:
            return .some(.outputLink(command, output: outputs.focusedOutput))
        default:
            return nil
        }
    }
}
