import Foundation
import OnAirControl
import OnAirCore
import OnAirNet
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
    /// Why the run must end now (a signal, `--duration`): the loop reads it before every input, so a quit
    /// never waits behind a backlog of network inputs (issue 29: SIGINT ignored for 5 s under a flood).
    private let urgentQuit = PendingQuit()
    /// Subscriber inputs posted and not yet taken by the loop, and those dropped for being over
    /// ``maxSubscriberBacklog`` since the loop last asked.
    private let backlog = Backlog()
    /// The most subscriber inputs waiting for the loop: about two seconds of a 30 fps stream's packets and
    /// events. Past it, inputs that only inform (data messages, metadata, media) are dropped and counted;
    /// what changes the session (status, tracks, the end of a connection) always passes.
    static let maxSubscriberBacklog = 4096

    /// `tick`: how often the loop turns by itself (the console's refresh rate, a second headless).
    init(tick: Duration, duration: Duration?, readsStandardInput: Bool, watchesSignals: Bool) {
        (stream, continuation) = AsyncStream<FrontEndInput>.makeStream()
        self.tick = tick
        self.duration = duration
        self.readsStandardInput = readsStandardInput
        let continuation = continuation
        let urgentQuit = urgentQuit
        signals = watchesSignals ? SignalWatcher { number in
            Self.requestQuit(number == SIGINT ? "interrupted (SIGINT)" : "terminated (SIGTERM)", urgentQuit, continuation)
        } : nil
    }

    /// Marks the run as ending and wakes the loop (the reason is read before any input already queued).
    private static func requestQuit(_ reason: String, _ urgentQuit: PendingQuit, _ continuation: AsyncStream<FrontEndInput>.Continuation) {
        if urgentQuit.request(reason) { continuation.yield(.quit(reason: reason)) }
    }

    /// The first reason given to end now; shared with the signal watcher's and the timer's closures.
    private final class PendingQuit: Sendable {
        let reason = Mutex<String?>(nil)

        /// Records `reason` unless one is already pending; true when it was the first.
        func request(_ reason: String) -> Bool {
            self.reason.withLock { pending in
                guard pending == nil else { return false }
                pending = reason
                return true
            }
        }
    }

    /// The reason to end now, if a signal or `--duration` asked.
    var pendingQuit: String? { urgentQuit.reason.withLock { $0 } }

    /// Subscriber inputs waiting, and dropped since the loop last asked; shared with the post closure.
    private final class Backlog: Sendable {
        let waiting = Atomic<Int>(0)
        let dropped = Atomic<Int>(0)
    }

    /// The loop took `input` off the stream.
    func took(_ input: FrontEndInput) {
        if case .subscriber = input { backlog.waiting.subtract(1, ordering: .relaxed) }
    }

    /// Subscriber inputs dropped since the last call.
    func takeDroppedSubscriberInputs() -> Int { backlog.dropped.exchange(0, ordering: .relaxed) }

    deinit {
        finish()
    }

    func post(_ input: FrontEndInput) {
        continuation.yield(input)
    }

    /// Where each source posts.
    var publisherPost: @Sendable (PublisherInput) -> Void { { [continuation] in continuation.yield(.publisher($0)) } }
    var subscriberPost: @Sendable (SubscriberInput) -> Void {
        { [continuation, backlog] input in
            if backlog.waiting.load(ordering: .relaxed) >= Self.maxSubscriberBacklog, Self.onlyInforms(input) {
                backlog.dropped.add(1, ordering: .relaxed)
                return
            }
            backlog.waiting.add(1, ordering: .relaxed)
            continuation.yield(.subscriber(input))
        }
    }

    /// Whether dropping `input` loses nothing but information: data messages, metadata, media, notices.
    private static func onlyInforms(_ input: SubscriberInput) -> Bool {
        guard case .player(_, let event, _) = input else { return false }
        switch event {
        case .message, .metadata, .packet, .undecodable, .streamBegin, .streamEOF, .streamDry, .notice, .warning: return true
        case .status, .videoTrack, .audioTrack, .closed, .reconnectRequest: return false
        }
    }
    var eventPost: @Sendable (OnAirEvent) -> Void { { [continuation] in continuation.yield(.event($0)) } }
    var poster: @Sendable (FrontEndInput) -> Void { { [continuation] in continuation.yield($0) } }

    /// Starts the feeders; the loop calls this as it begins.
    func start() {
        let continuation = continuation
        let urgentQuit = urgentQuit
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
                if !Task.isCancelled { Self.requestQuit("duration reached", urgentQuit, continuation) }
            })
        }
        self.feeders.withLock { $0 = feeders }
        if readsStandardInput {
            StdinCommandReader.start(tooLong: { bytes, prefix in
                continuation.yield(.badCommand("stdin line of \(bytes) bytes ignored (over the \(StdinLineSplitter.maxLineBytes)-byte limit): "
                    + "'\(prefix)…'"))
            }) { line in
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
