import OnAirConsole
import OnAirControl
import OnAirCore
import OnAirMedia
import OnAirTerminal

/// How one front end presents the one loop — the console or JSON Lines — and everything its setup needs
/// from that choice: the one input stream, where setup notices and outside events go, and the engine's
/// preview. `publish`, `subscribe` and `demo` each make one and build their sides the same way for both.
final class FrontEndPresentation {
    let inputs: FrontEndInputs
    let clock: SessionClock
    private let screen: ConsolePresenter?
    private let writer: JSONLinesWriter?
    /// The console shows its setup notices at the foot of the screen once it runs (the last one stays).
    private var pendingNotices: [String] = []

    /// The console; `--log FILE` writes every event beside it. Theme errors come first (usage errors).
    static func console(
        theme name: String, color: ColorChoice, previewFramesPerSecond: Double, logFile: String?, duration: Double?, command: String,
        clock: SessionClock = SessionClock()
    ) throws -> FrontEndPresentation {
        let (theme, warnings) = try FrontEndSetup.theme(name, command: command)
        let console = ConsolePresenter(clock: clock, theme: theme, previewFramesPerSecond: previewFramesPerSecond, color: color)
        let presentation = FrontEndPresentation(
            inputs: FrontEndInputs(tick: console.tick, duration: duration.map(Self.milliseconds), readsStandardInput: false, watchesSignals: false),
            clock: clock, screen: console, writer: nil)
        presentation.pendingNotices = warnings
        if let log = try FrontEndSetup.eventLog(logFile, command: command) { console.writeEvents(to: log) }
        return presentation
    }

    /// JSON Lines to `writer`, stdin commands unless a scenario plays instead. No theme is drawn, but an
    /// unknown or malformed `--theme` is still the usage error it is on the console (exit 2), so a command
    /// line that works headless does not fail only when someone runs it with a screen.
    static func headless(
        writer: JSONLinesWriter, theme: String, command: String, duration: Double?, readsStandardInput: Bool = true, clock: SessionClock = SessionClock()
    ) throws -> FrontEndPresentation {
        _ = try FrontEndSetup.theme(theme, command: command)
        return FrontEndPresentation(
            inputs: FrontEndInputs(tick: .seconds(1), duration: duration.map(Self.milliseconds), readsStandardInput: readsStandardInput, watchesSignals: true),
            clock: clock, screen: nil, writer: writer)
    }

    private init(inputs: FrontEndInputs, clock: SessionClock, screen: ConsolePresenter?, writer: JSONLinesWriter?) {
        self.inputs = inputs
        self.clock = clock
        self.screen = screen
        self.writer = writer
    }

    private static func milliseconds(_ seconds: Double) -> Duration { .milliseconds(Int64(seconds * 1000)) }

    /// The console, for what only it has (the exit summary, a scenario's observer).
    var consolePresenter: ConsolePresenter? { screen }

    /// The engine as this front end runs it: headless draws no preview.
    func engineSettings(_ settings: EngineSettings) -> EngineSettings {
        screen == nil ? settings.withoutPreview : settings
    }

    /// A setup notice (a missing camera replaced by the test pattern, a `--ca-file` that is not needed):
    /// at the foot of the console, or a `notice` event of `side` headless.
    func notice(_ text: String, side: HeadlessEvent.Side) {
        if let writer {
            writer.write(OnAirEvent(time: clock.now, side: side, .notice(text)))
        } else {
            pendingNotices.append(text)
        }
    }

    /// Where the link stage and ABR send their events from their own tasks: straight to stdout headless,
    /// through the loop to `--log` and the screen in the console.
    var events: @Sendable (OnAirEvent) -> Void {
        if let writer { return { writer.write($0) } }
        return inputs.eventPost
    }

    /// The `started` event: headless on stdout, the console in `--log` (the screen shows its dashboards).
    func started(_ details: [String: JSONValue]) {
        let event = OnAirEvent(time: clock.now, side: .app, .started(details))
        writer?.write(event)
        screen?.log(event)
    }

    /// Runs the one loop over `sides` until a quit.
    func run(_ sides: FrontEndSides) async throws {
        if let screen {
            for text in pendingNotices {
                screen.notice(text)
                screen.log(OnAirEvent(time: clock.now, side: .app, .notice(text)))
            }
            try await screen.run(sides, inputs: inputs)
        } else if let writer {
            try await FrontEndLoop.run(sides, inputs: inputs, clock: clock, presenter: HeadlessPresenter(writer: writer, clock: clock))
        }
    }
}
