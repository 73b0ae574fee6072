import DequeModule
import Dispatch
import Synchronization

/// Capture thread → encode thread: a tiny queue that drops the oldest picture when the encoder is behind.
///
/// Why drop-oldest with room for two: a camera must never block (the driver would drop frames itself,
/// unreported); keeping the newest frames keeps latency at most two frames, and every overwrite is counted
/// as an "encoder busy" drop so the dashboard can say why fps fell. Unpaced sources (benchmarks) instead
/// wait for room (`put(_:waiting: true)`), so every frame of the clip is encoded.
final class FrameHandoff: Sendable {
    private struct State {
        var frames = Deque<VideoFrame>()
        var closed = false
        var dropped = 0
    }

    let capacity: Int
    private let state = Mutex(State())
    private let available = DispatchSemaphore(value: 0)
    private let space = DispatchSemaphore(value: 0)

    init(capacity: Int = 2) { self.capacity = capacity }

    /// Adds a frame; returns true if an older one had to be dropped to make room. With `waiting`, blocks
    /// until there is room instead of dropping (or until closed).
    @discardableResult
    func put(_ frame: VideoFrame, waiting: Bool = false) -> Bool {
        while waiting {
            let admitted = state.withLock { state -> Bool in
                guard !state.closed else { return true }
                guard state.frames.count < capacity else { return false }
                state.frames.append(frame)
                return true
            }
            if admitted {
                available.signal()
                return false
            }
            _ = space.wait(timeout: .now() + .milliseconds(200))
        }
        let dropped = state.withLock { state -> Bool in
            guard !state.closed else { return false }
            var dropped = false
            if state.frames.count >= capacity {
                state.frames.removeFirst()
                state.dropped += 1
                dropped = true
            }
            state.frames.append(frame)
            return dropped
        }
        available.signal()
        return dropped
    }

    /// The oldest frame, waiting for one; nil once closed.
    func take() -> VideoFrame? {
        while true {
            let next: VideoFrame?? = state.withLock { state in
                if let frame = state.frames.popFirst() { return .some(frame) }
                return state.closed ? .some(nil) : .none
            }
            if let next {
                space.signal()
                return next
            }
            _ = available.wait(timeout: .now() + .milliseconds(200))
        }
    }

    /// What `take(within:)` found.
    enum Taken {
        case frame(VideoFrame)
        /// Nothing arrived in time: the capture thread is stuck in the device (a camera that stopped).
        case late
        case closed
    }

    /// The oldest frame, waiting at most `nanoseconds` for one.
    func take(within nanoseconds: UInt64) -> Taken {
        let deadline = DispatchTime.now() + .nanoseconds(Int(nanoseconds))
        while true {
            let next: VideoFrame?? = state.withLock { state in
                if let frame = state.frames.popFirst() { return .some(frame) }
                return state.closed ? .some(nil) : .none
            }
            if let next {
                guard let frame = next else { return .closed }
                space.signal()
                return .frame(frame)
            }
            if DispatchTime.now() >= deadline { return .late }
            _ = available.wait(timeout: deadline)
        }
    }

    func close() {
        state.withLock { $0.closed = true }
        available.signal()
        space.signal()
    }

    var isClosed: Bool { state.withLock { $0.closed } }
    var depth: Int { state.withLock { $0.frames.count } }
    var dropped: Int { state.withLock { $0.dropped } }
}
