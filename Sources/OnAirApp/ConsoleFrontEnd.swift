import OnAirConsole
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
        /// The scenario is over.
        case quit
    }

    private let stream: AsyncStream<Input>
    private let continuation: AsyncStream<Input>.Continuation
    private let clock: SessionClock
    private var publisher: PublisherController?
    private var subscriber: SubscriberController?
    private var ui: ConsoleUIState
    private let theme: Theme
    private let tick: Duration
    /// With `--script`: both sides as the headless output would print them, handed to `scenarioObserver`
    /// after every turn so expectations see exactly what a headless run sees.
    private var scenarioSides: HeadlessDemo?
    private var scenarioObserver: (@Sendable (HeadlessEvent) -> Void)?

    init(clock: SessionClock, theme: Theme, previewFramesPerSecond: Double) {
        (stream, continuation) = AsyncStream<Input>.makeStream()
        self.clock = clock
        self.theme = theme
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

    /// Where a scenario sends its commands, notices and end.
    var post: @Sendable (Input) -> Void {
        let continuation = continuation
        return { continuation.yield($0) }
    }

    /// Plays a scenario on this console: what both sides show is reported to `observer` (demo only).
    func observeForScenario(_ observer: @escaping @Sendable (HeadlessEvent) -> Void) {
        guard let publisher, let subscriber else { return }
        scenarioSides = HeadlessDemo(publisher: publisher, subscriber: subscriber)
        scenarioObserver = observer
    }

    func attach(publisher: PublisherController?, subscriber: SubscriberController?) {
        self.publisher = publisher
        self.subscriber = subscriber
        if publisher == nil { ui.focus = .subscriber }
    }

    /// Runs until the operator quits or a signal arrives; the terminal is restored on every way out.
    func run() async throws {
        let continuation = continuation
        let terminal: TerminalThread
        do {
            terminal = try TerminalThread(theme: theme) { continuation.yield(.terminal($0)) }
        } catch {
            await publisher?.shutdown()
            await subscriber?.shutdown()
            throw FrontEndExit(code: 2, message: "onair: \(error)")
        }
        defer { terminal.stop() }
        let ticker = Task { [tick] in
            while !Task.isCancelled {
                try? await Task.sleep(for: tick)
                continuation.yield(.tick)
            }
        }
        defer { ticker.cancel() }
        terminal.show(screen())
        var lastSubscriberTick = clock.now
        loop: for await input in stream {
            switch input {
            case .publisher(let event):
                await publisher?.handle(event)
            case .subscriber(let event):
                await subscriber?.handle(event)
            case .terminal(.key(let key)):
                if await apply(key) == .quit { break loop }
            case .terminal(.resize):
                break
            case .terminal(.stopRequested):
                break loop
            case .tick:
                let now = clock.now
                await publisher?.tick()
                if now.since(lastSubscriberTick) >= .seconds(1) {
                    lastSubscriberTick = now
                    await subscriber?.handle(.tick)
                    if let scenarioSides, let scenarioObserver { scenarioSides.statsEvents(at: now).forEach(scenarioObserver) }
                }
            case .command(let command):
                _ = await scenarioSides?.perform(command)
            case .notice(let text):
                showNotice(text)
            case .quit:
                break loop
            }
            if let scenarioSides, let scenarioObserver { scenarioSides.report(at: clock.now).forEach(scenarioObserver) }
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
        let effects = ui.handle(key, publisher: publisher?.state, subscriber: subscriber?.state, now: clock.now)
        for effect in effects {
            switch effect {
            case .perform(let action, on: .publisher):
                await publisher?.handle(.event(.operator(action)))
            case .perform(let action, on: .subscriber):
                await subscriber?.handle(.event(.operator(action)))
            case .togglePauseVideo:
                await publisher?.handle(.event(.control(.togglePauseVideo)))
            case .togglePauseAudio:
                await publisher?.handle(.event(.control(.togglePauseAudio)))
            case .nextPolicy:
                await publisher?.handle(.event(.control(.nextPolicy)))
            case .stopBroadcast:
                await publisher?.handle(.event(.control(.stop)))
            case .startBroadcast:
                await publisher?.handle(.event(.control(.start(nil))))
            case .quit:
                return .quit
            }
        }
        return .carryOn
    }

    private func screen() -> ConsoleScreen {
        ConsoleScreen(
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
