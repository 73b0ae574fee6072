import Foundation
import OnAirControl
import OnAirCore
import Synchronization

/// The one input stream of a front end, with its feeders: a tick, the `--duration` timer and, headless,
/// stdin commands and SIGINT/SIGTERM (the console's terminal thread turns those into `stopRequested`).
/// The controllers, the link stage, a scenario and the terminal post into it; the loop is its one reader.
final class FrontEndInputs: Sendable {
    let stream: AsyncStream<FrontEndInput>
    private let continuation: AsyncStream<FrontEndInput>.Continuation
    private let tick: Duration
    private let duration: Duration?
    private let readsStandardInput: Bool
    /// Headless: SIGINT/SIGTERM end the run cleanly from the moment the front end exists.
    private let signals: SignalWatcher?
    private let feeders = Mutex<[Task<Void, Never>]>([])

    /// `tick`: how often the loop turns by itself (the console's refresh rate, a second headless).
    init(tick: Duration, duration: Duration?, readsStandardInput: Bool, watchesSignals: Bool) {
        (stream, continuation) = AsyncStream<FrontEndInput>.makeStream()
        self.tick = tick
        self.duration = duration
        self.readsStandardInput = readsStandardInput
        let continuation = continuation
        signals = watchesSignals ? SignalWatcher { number in
            continuation.yield(.quit(reason: number == SIGINT ? "interrupted (SIGINT)" : "terminated (SIGTERM)"))
        } : nil
    }

    deinit {
        finish()
    }

    func post(_ input: FrontEndInput) {
        continuation.yield(input)
    }

    /// Where each source posts.
    var publisherPost: @Sendable (PublisherInput) -> Void { { [continuation] in continuation.yield(.publisher($0)) } }
    var subscriberPost: @Sendable (SubscriberInput) -> Void { { [continuation] in continuation.yield(.subscriber($0)) } }
    var eventPost: @Sendable (HeadlessEvent) -> Void { { [continuation] in continuation.yield(.event($0)) } }
    var poster: @Sendable (FrontEndInput) -> Void { { [continuation] in continuation.yield($0) } }

    /// Starts the feeders; the loop calls this as it begins.
    func start() {
        let continuation = continuation
        let tick = tick
        var feeders = [
            Task {
                var lastSecond = ContinuousClock.now
                while !Task.isCancelled {
                    try? await Task.sleep(for: tick)
                    let now = ContinuousClock.now
                    let second = tick >= .seconds(1) || now - lastSecond >= .seconds(1)
                    if second { lastSecond = now }
                    continuation.yield(.tick(second: second))
                }
            }
        ]
        if let duration {
            feeders.append(Task {
                try? await Task.sleep(for: duration)
                if !Task.isCancelled { continuation.yield(.quit(reason: "duration reached")) }
            })
        }
        self.feeders.withLock { $0 = feeders }
        if readsStandardInput {
            StdinCommandReader.start { line in
                if let command = OperatorCommand(line) {
                    continuation.yield(.command(command))
                } else if let reason = OperatorCommand.linkError(in: line) {
                    continuation.yield(.badCommand(reason))
                } else {
                    continuation.yield(.unknownCommand(line))
                }
            }
        }
    }

    func finish() {
        for feeder in feeders.withLock({ $0 }) { feeder.cancel() }
        continuation.finish()
    }
}
