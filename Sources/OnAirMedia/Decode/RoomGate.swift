import Synchronization

/// Where a producer waits for room in a bounded queue that a consumer thread empties
/// (``DecoderThread/waitForRoom(forBytes:timeout:)``).
///
/// Why a wake is only a hint, as with a condition variable: the consumer takes a packet, *then* wakes the
/// waiters. In between, the producer may already have seen that room, used it (the queue is full again)
/// and started waiting; the late wake then told it "room" for a slot it had filled itself, and its next
/// packet overflowed the queue, which dropped the queued video to the next keyframe — silently, since the
/// producer believed it had waited (issue 25: `SubscriberAggregateTests.burstIsPacedNotDropped` lost 57
/// video packets in about 1 run of 10 under load; a 2 ms pause between the take and the wake lost them
/// every time). So ``wait(forBytes:until:)`` returns true only when `hasRoom` holds as it returns; a wake only makes
/// it look again.
public final class RoomGate: Sendable {
    private struct Waiter {
        var continuation: CheckedContinuation<Void, Never>
        var timer: Task<Void, Never>?
    }

    private let hasRoom: @Sendable (_ bytes: Int) -> Bool
    private let waiters = Mutex<(next: Int, waiting: [Int: Waiter], closed: Bool)>((0, [:], false))
    /// How many times a producer started waiting (tests wait for it to be parked at a known point).
    private let parkings = Atomic(0)

    /// `hasRoom(bytes)`: whether a packet of that size enters now; asked afresh whenever a producer looks,
    /// so it must be cheap.
    public init(hasRoom: @escaping @Sendable (_ bytes: Int) -> Bool) { self.hasRoom = hasRoom }

    /// Returns true once `hasRoom(bytes)` holds, false at `deadline` without room or once the gate is
    /// closed. With one producer the room stays until that producer fills it.
    public func wait(forBytes bytes: Int, until deadline: ContinuousClock.Instant) async -> Bool {
        while true {
            if hasRoom(bytes) { return true }
            if waiters.withLock({ $0.closed }) || ContinuousClock.now >= deadline { return false }
            await park(forBytes: bytes, until: deadline)
        }
    }

    /// The consumer took something (or the deadline passed): every waiting producer looks again.
    public func wake() {
        let woken = waiters.withLock { waiters in
            defer { waiters.waiting.removeAll() }
            return Array(waiters.waiting.values)
        }
        for waiter in woken {
            waiter.timer?.cancel()
            waiter.continuation.resume()
        }
    }

    /// No room will come (the consumer stops): waiting producers return false, later ones at once.
    public func close() {
        waiters.withLock { $0.closed = true }
        wake()
    }

    /// Producers that have parked so far.
    public var parked: Int { parkings.load(ordering: .relaxed) }

    /// Waits for one wake or the deadline, whichever is first; the caller looks again either way.
    private func park(forBytes bytes: Int, until deadline: ContinuousClock.Instant) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            // Looked at again under the waiters' lock: a wake after this look finds the waiter registered.
            let id = waiters.withLock { waiters -> Int? in
                if hasRoom(bytes) || waiters.closed { return nil }
                waiters.next += 1
                waiters.waiting[waiters.next] = Waiter(continuation: continuation)
                return waiters.next
            }
            guard let id else { return continuation.resume() }
            parkings.add(1, ordering: .relaxed)
            let timer = Task { [self] in
                try? await Task.sleep(until: deadline, clock: .continuous)
                waiters.withLock { $0.waiting.removeValue(forKey: id) }?.continuation.resume()
            }
            // The wake may already have come: then the timer has nothing to do and is cancelled.
            let stillWaiting = waiters.withLock { waiters -> Bool in
                guard waiters.waiting[id] != nil else { return false }
                waiters.waiting[id]?.timer = timer
                return true
            }
            if !stillWaiting { timer.cancel() }
        }
    }
}
