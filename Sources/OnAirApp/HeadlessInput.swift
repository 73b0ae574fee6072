import Foundation
import OnAirControl
import OnAirCore

/// What a headless front end's one loop receives: its side's inputs, stdin commands, ticks and a quit.
public enum HeadlessInput<Side: Sendable>: Sendable {
    case side(Side)
    case command(OperatorCommand)
    case unknownCommand(String)
    /// A known command with a bad value, and why (`link-cap 9`).
    case badCommand(String)
    case tick
    case quit(reason: String)
}

/// The one input stream of a headless front end, with its standard feeders: stdin commands, a tick
/// every second, the `--duration` timer and SIGINT/SIGTERM.
public final class HeadlessInputStream<Side: Sendable>: Sendable {
    public let stream: AsyncStream<HeadlessInput<Side>>
    public let continuation: AsyncStream<HeadlessInput<Side>>.Continuation
    private let signals: SignalWatcher
    private let feeders: [Task<Void, Never>]

    public init(duration: Duration?, readsStandardInput: Bool = true, tick: Duration = .seconds(1)) {
        let (stream, continuation) = AsyncStream<HeadlessInput<Side>>.makeStream()
        self.stream = stream
        self.continuation = continuation
        signals = SignalWatcher { number in
            continuation.yield(.quit(reason: number == SIGINT ? "interrupted (SIGINT)" : "terminated (SIGTERM)"))
        }
        var feeders = [
            Task {
                while !Task.isCancelled {
                    try? await Task.sleep(for: tick)
                    continuation.yield(.tick)
                }
            }
        ]
        if let duration {
            feeders.append(Task {
                try? await Task.sleep(for: duration)
                if !Task.isCancelled { continuation.yield(.quit(reason: "duration reached")) }
            })
        }
        self.feeders = feeders
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

    deinit {
        finish()
    }

    /// Feeds one of the side's inputs into the loop.
    public func post(_ input: Side) {
        continuation.yield(.side(input))
    }

    public func finish() {
        for feeder in feeders { feeder.cancel() }
        continuation.finish()
    }
}
