import Synchronization

/// Holds the publisher's sends back for a moment, so the media that piles up meanwhile leaves as one
/// burst: throughput ABR's way to ask a quiet link whether it has room past the stream without a target
/// that can fail (`AdaptiveBitrate+Burst`). `PublishNetwork` sets it on ABR's `.burst`; `MediaPump` waits it
/// out before its next write. The media is the same; it only leaves up to the hold later.
public final class SendHold: Sendable {
    private let until = Mutex<ContinuousClock.Instant?>(nil)

    public init() {}

    /// Sends wait until `duration` from now (a later hold already set stands).
    public func hold(for duration: Duration) {
        let end = ContinuousClock.now + duration
        until.withLock { $0 = max($0 ?? end, end) }
    }

    /// How long sends still wait; nil when they need not.
    public var remaining: Duration? {
        until.withLock { until in
            guard let end = until else { return nil }
            let left = end - ContinuousClock.now
            guard left > .zero else {
                until = nil
                return nil
            }
            return left
        }
    }
}
