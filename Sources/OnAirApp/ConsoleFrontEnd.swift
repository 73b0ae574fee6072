import Foundation
import OnAirConsole
import OnAirControl
import OnAirCore
import OnAirMedia
import OnAirTerminal

/// The console: one loop over keys, network events, timers and ticks for one or both sides, drawing the
/// screen once per turn (CONVENTIONS.md §8). `onair publish` and `onair subscribe` run one side each,
/// `onair demo` both.
final class ConsoleFrontEnd {
    enum Input: Sendable {
        case publisher(PublisherInput)
        case subscriber(SubscriberInput)
        case terminal(TerminalScreen.Event)
        case tick
        /// A scenario's `press` (the same commands as headless stdin).
        case command(OperatorCommand)
        /// A scenario's step, shown at the foot of the screen.
        case notice(String)
        /// An event from outside the loop (the link stage, ABR): to `--log` and a scenario's observer;
        /// a link change also shows at the foot of the screen.
        case event(HeadlessEvent)
        /// The scenario is over.
        case quit
    }

    private let stream: AsyncStream<Input>
    private let continuation: AsyncStream<Input>.Continuation
    private let clock: SessionClock
    private var publisher: PublisherController?
    private var subscriber: SubscriberController?
    /// Where keys' and a scenario's commands go (the one path headless stdin takes too).
    private var commands = CommandRouter(publisher: nil, subscriber: nil)
    private var ui: ConsoleUIState
    private let theme: Theme
    /// `--color`, `NO_COLOR` and a colourless theme, decided once: see `ColorChoice.forcedMode`.
    private let colorMode: TerminalColorMode?
    private let tick: Duration
    /// The sides as the headless output would print them, for `--log FILE` and a scenario's expectations:
    /// after every turn their new events go to every sink, so both see exactly what a headless run sees.
    private var reportingSides: [any HeadlessSide] = []
    private var eventSinks: [@Sendable (HeadlessEvent) -> Void] = []
    /// What the summary printed on exit reports.
    var summary = SessionSummary()
    /// `--duration`: the console stops cleanly after this long, as the headless front ends do.
    var duration: Duration?

    init(clock: SessionClock, theme: Theme, previewFramesPerSecond: Double, color: ColorChoice = .auto) {
        (stream, continuation) = AsyncStream<Input>.makeStream()
        self.clock = clock
        self.theme = theme
        colorMode = color.forcedMode(environment: ProcessInfo.processInfo.environment, themeDrawsColour: theme.drawsColour)
        ui = ConsoleUIState(showPreview: previewFramesPerSecond > 0)
        // The screen refreshes at the preview rate (capped for slow SSH links), at least twice a second
        // so the session timer and rates move.
        let rate = min(max(previewFramesPerSecond, 2), 30)
        tick = .milliseconds(Int64(1000 / rate))
    }

    /// Where the controllers post their asynchronous results.
    var publisherPost: @Sendable (PublisherInput) -> Void {
        let continuation = continuation
        return { continuation.yield(.publisher($0)) }
    }

    var subscriberPost: @Sendable (SubscriberInput) -> Void {
        let continuation = continuation
        return { continuation.yield(.subscriber($0)) }
    }

    /// A one-line notice at the foot of the screen (a missing camera replaced by the test pattern, …).
    func showNotice(_ text: String) {
        ui.notice = ConsoleUIState.Notice(text: text, postedAt: clock.now)
    }

    /// Where the link stage and ABR send their events (from their own tasks: through the loop).
    var eventPost: @Sendable (HeadlessEvent) -> Void {
        let continuation = continuation
        return { continuation.yield(.event($0)) }
    }

    /// Where a scenario sends its commands, notices and end.
    var post: @Sendable (Input) -> Void {
        let continuation = continuation
        return { continuation.yield($0) }
    }

    /// Plays a scenario on this console: what both sides show is reported to `observer` (demo only).
    func observeForScenario(_ observer: @escaping @Sendable (HeadlessEvent) -> Void) {
        guard publisher != nil, subscriber != nil else { return }
        startReporting()
        eventSinks.append(observer)
    }

    /// `--log FILE`: every event, in the headless schema, to `writer` as the console runs.
    func writeEvents(to writer: JSONLinesWriter) {
        startReporting()
        eventSinks.append { writer.write($0) }
    }

    /// Creates the reporting sides once (each consumes what it reports, so there must be one set).
    private func startReporting() {
        guard reportingSides.isEmpty else { return }
        if let publisher, let subscriber {
            reportingSides = [HeadlessDemo(publisher: publisher, subscriber: subscriber)]
        } else if let publisher {
            reportingSides = [HeadlessPublisher(publisher)]
        } else if let subscriber {
            reportingSides = [HeadlessSubscriber(subscriber)]
        }
    }

    private func emit(_ events: [HeadlessEvent]) {
        for event in events { eventSinks.forEach { $0(event) } }
    }

    func attach(publisher: PublisherController?, subscriber: SubscriberController?) {
        self.publisher = publisher
        self.subscriber = subscriber
        commands = CommandRouter(publisher: publisher, subscriber: subscriber)
        // A codec the subscriber does not decode, or a server breaking the spec, shows at the foot of the screen.
        subscriber?.showNotice = { [weak self] in self?.showNotice($0) }
        if publisher == nil { ui.focus = .subscriber }
    }

    /// Runs until the operator quits or a signal arrives; the terminal is restored on every way out, and
    /// then the session summary is printed on stdout (time on air, bytes, reconnects, recordings).
    /// A run that ends on a failure prints it too, before the caller's one-line reason on stderr; a terminal
    /// that never started (refused, e.g. `TERM=dumb`) has no session to sum up.
    func run() async throws {
        defer {
            let lines = terminalStarted ? summary.lines(at: clock.now) : []
            if !lines.isEmpty { FileHandle.standardOutput.write(Data((lines.joined(separator: "\n") + "\n").utf8)) }
        }
        try await runOnTerminal()
    }

    private var terminalStarted = false

    private func runOnTerminal() async throws {
        let continuation = continuation
        let terminal: TerminalThread
        do {
            terminal = try TerminalThread(theme: theme, options: TerminalScreen.Options(colorMode: colorMode)) { continuation.yield(.terminal($0)) }
        } catch {
            await publisher?.shutdown()
            await subscriber?.shutdown()
            throw FrontEndExit(code: 2, message: "onair: \(error)")
        }
        terminalStarted = true
        defer { terminal.stop() }
        let ticker = Task { [tick] in
            while !Task.isCancelled {
                try? await Task.sleep(for: tick)
                continuation.yield(.tick)
            }
        }
        defer { ticker.cancel() }
        let timeout = duration.map { duration in
            Task {
                try? await Task.sleep(for: duration)
                if !Task.isCancelled { continuation.yield(.quit) }
            }
        }
        defer { timeout?.cancel() }
        terminal.show(screen())
        var lastSubscriberTick = clock.now
        loop: for await input in stream {
            switch input {
            case .publisher(let event):
                publisher?.handle(event)
            case .subscriber(let event):
                await subscriber?.handle(event)
            case .terminal(.key(let key)):
                if await apply(key) == .quit { break loop }
            case .terminal(.resize(_, let height)):
                ui.screenHeight = height
            case .terminal(.stopRequested):
                break loop
            case .tick:
                let now = clock.now
                publisher?.tick()
                summary.observe(publisher: publisher?.state, subscriber: subscriber?.state, bytesSent: publisher?.bytesOnWire, at: now)
                if now.since(lastSubscriberTick) >= .seconds(1) {
                    lastSubscriberTick = now
                    await subscriber?.handle(.tick)
                    emit(reportingSides.flatMap { $0.statsEvents(at: now) })
                }
            case .command(let command):
                _ = await commands.perform(command)
            case .notice(let text):
                showNotice(text)
            case .event(let event):
                emit([event])
                if event.kind == "link", case .string(let state)? = event.details["state"] {
                    let command = event.details["command"].flatMap { if case .string(let text) = $0 { text } else { nil } }
                    showNotice(command.map { "\($0): link \(state)" } ?? "link \(state)")
                }
            case .quit:
                break loop
            }
            emit(reportingSides.flatMap { $0.report(at: clock.now) })
            terminal.show(screen())
        }
        await publisher?.shutdown()
        await subscriber?.shutdown()
        // Like headless: a run that ends on a failed publish exits 1 with the reason on stderr.
        if let publisher, case .error(let message) = publisher.state.status {
            throw FrontEndExit(code: 1, message: "onair \(subscriber == nil ? "publish" : "demo"): \(message)")
        }
    }

    private enum Outcome { case carryOn, quit }

    private func apply(_ key: ConsoleKey) async -> Outcome {
        ui.link = publisher?.link
        ui.subscriberLink = subscriber?.link?.state
        let effects = ui.handle(key, publisher: publisher?.state, subscriber: subscriber?.state, now: clock.now)
        for effect in effects {
            switch effect {
            case .command(let command):
                // The key table offered only what the core's rule allows; a refusal here is news.
                if let refusal = await commands.perform(command) { showNotice(refusal) }
            case .quit:
                return .quit
            }
        }
        return .carryOn
    }

    private func screen() -> ConsoleScreen {
        ui.link = publisher?.link
        ui.subscriberLink = subscriber?.link?.state
        return ConsoleScreen(
            publisher: publisher?.state,
            publisherTelemetry: publisher.map { publisherTelemetry($0) } ?? .none,
            subscriber: subscriber?.state,
            subscriberTelemetry: subscriber?.telemetry ?? .none,
            ui: ui,
            now: clock.now
        )
    }

    private func publisherTelemetry(_ publisher: PublisherController) -> StreamTelemetry {
        publisher.telemetry(preview: ui.showPreview ? publisher.engine.preview : nil)
    }
}
