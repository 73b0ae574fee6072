import Synchronization

/// Answers the core's "schedule a timer" actions with real time: after the delay, `fire` is called
/// with the timer's id, which the front end feeds back into its state machine as an event.
///
/// Scheduling an id that is already pending replaces it, and cancelling an id that has fired is a
/// no-op — so the state machines need not track which timers are outstanding.
public final class TimerService<ID: Hashable & Sendable>: Sendable {
    private let pending = Mutex<[ID: Task<Void, Never>]>([:])
    private let fire: @Sendable (ID) -> Void

    public init(fire: @escaping @Sendable (ID) -> Void) {
        self.fire = fire
    }

    deinit {
        cancelAll()
    }

    public func schedule(_ id: ID, after delay: Duration) {
        // The task is created while the lock is held, so even a zero delay finds itself pending.
        pending.withLock { timers in
            timers[id]?.cancel()
            timers[id] = Task { [weak self] in
                try? await Task.sleep(for: delay)
                guard !Task.isCancelled, let self else { return }
                let stillPending = self.pending.withLock { $0.removeValue(forKey: id) != nil }
                if stillPending { self.fire(id) }
            }
        }
    }

    public func cancel(_ id: ID) {
        pending.withLock { $0.removeValue(forKey: id) }?.cancel()
    }

    public func cancelAll() {
        let tasks = pending.withLock { timers in
            defer { timers.removeAll() }
            return Array(timers.values)
        }
        tasks.forEach { $0.cancel() }
    }
}
