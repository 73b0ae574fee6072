import Synchronization

/// Tells a player's task that the loop has handled one of its events, so the packets after it — which go
/// straight to the decoder — never overtake it (a track's configuration, a new publish session, a move).
/// Resumes on `done()` or, if the loop drops the input or has ended, when the input is released.
public final class SubscriberAck: Sendable {
    private let continuation: Mutex<CheckedContinuation<Void, Never>?>

    init(_ continuation: CheckedContinuation<Void, Never>) { self.continuation = Mutex(continuation) }

    public func done() { continuation.withLock { $0.take() }?.resume() }

    deinit { done() }
}
