import DequeModule
import OnAirCore
import Synchronization

/// The engine's bounded output: encoder threads push, one consumer (the publisher) pulls asynchronously.
///
/// Why bounded, and why drop video to a keyframe: when the network is slower than the encoder, an unbounded
/// queue turns into ever-growing latency and memory. Dropping arbitrary packets would corrupt the picture
/// (P-frames reference what came before), so on overflow the queued video is discarded, further video is
/// refused until the next keyframe, and `onCongestion` asks the encoder for that keyframe at once (OBS's
/// drop-to-keyframe, `libobs/obs-output.c`). Audio is kept as long as possible — gaps in sound are worse than
/// a frozen picture — and only its oldest packets go when the queue holds nothing else.
/// Depth never exceeds `capacity` packets or `byteCapacity` bytes (a single larger packet is admitted alone).
///
/// Why audio may wait for video (`audioMergeNanoseconds`): each wake-up of the consumer costs a hop through
/// the task pool and the event loop, 77 times a second at 30 fps plus 47 AAC frames; merging the two cut
/// the engine benchmark's total CPU by about 6 %. While video is flowing (a video packet came less than
/// `audioMergeNanoseconds` ago), audio that would wake the idle consumer alone waits for the next video
/// packet, and both leave in one batch and one socket write, as a muxer interleaves. Video never waits;
/// with video paused or absent, audio leaves at once.
public final class PacketQueue: Sendable {
    /// What the dashboard shows about the queue.
    public struct Snapshot: Sendable, Equatable {
        public var depth: Int
        public var bytes: Int
        public var capacity: Int
        public var byteCapacity: Int
        /// The deepest the queue has been.
        public var highWater: Int
        public var videoPacketsDropped: Int
        public var audioPacketsDropped: Int
        /// Overflows: each one discarded the queued video and requested a keyframe.
        public var congestionEvents: Int
        public var droppingVideoUntilKeyframe: Bool
        /// Capture → leaving the queue, in ms, over the last 300 packets of each kind.
        public var videoLatencyP50: Double?
        public var videoLatencyP99: Double?
        public var audioLatencyP50: Double?
        public var audioLatencyP99: Double?
        public var packetsDelivered: Int
    }

    private struct State {
        var items = Deque<EncodedPacket>()
        var bytes = 0
        var highWater = 0
        var videoDropped = 0
        var audioDropped = 0
        var congestionEvents = 0
        var droppingVideo = false
        var finished = false
        var delivered = 0
        /// `delivered` when a keyframe was last asked for: one is asked for again only after the consumer
        /// took something, so a link that is down does not turn every frame into a keyframe.
        var keyframeAskedAtDelivered: Int?
        /// The consumer waiting for packets; it receives a batch, or an empty one once finished or cancelled.
        var waiter: CheckedContinuation<[EncodedPacket], Never>?
        /// How many packets the waiting consumer takes at most.
        var waiterLimit = 1
        var lastVideoPush: UInt64?
        var consumerCancelled = false
        var videoLatency = LatencyWindow()
        var audioLatency = LatencyWindow()
    }

    public let capacity: Int
    public let byteCapacity: Int
    /// How long audio may wait for a video packet to leave with it; 0 wakes the consumer for every packet.
    public let audioMergeNanoseconds: UInt64
    private let state = Mutex(State())
    private let onCongestion: @Sendable () -> Void
    /// Monotonic nanoseconds: the merge window and the capture latency are measured on it (tests step it).
    private let clock: @Sendable () -> UInt64

    public init(
        capacity: Int = 120, byteCapacity: Int = 4 << 20, audioMergeNanoseconds: UInt64 = 0,
        onCongestion: @escaping @Sendable () -> Void = {},
        clock: @escaping @Sendable () -> UInt64 = MonotonicClock.now
    ) {
        precondition(capacity >= 2 && byteCapacity > 0, "a queue needs room for at least two packets")
        self.capacity = capacity
        self.byteCapacity = byteCapacity
        self.audioMergeNanoseconds = audioMergeNanoseconds
        self.onCongestion = onCongestion
        self.clock = clock
    }

    /// Adds a packet without blocking (called from encoder threads); applies the drop policy when full.
    public func push(_ packet: EncodedPacket) {
        var asksForKeyframe = false
        let handoff: (CheckedContinuation<[EncodedPacket], Never>, [EncodedPacket])? = state.withLock { state in
            guard !state.finished, admit(packet, &state, asksForKeyframe: &asksForKeyframe) else { return nil }
            let now = clock()
            if packet.kind == .video { state.lastVideoPush = now }
            state.items.append(packet)
            state.bytes += packet.payload.count
            state.highWater = max(state.highWater, state.items.count)
            guard let waiter = state.waiter else { return nil }
            if packet.kind == .audio, holdsAudio(state, now: now) { return nil }
            state.waiter = nil
            return (waiter, PacketQueue.take(upTo: state.waiterLimit, &state, now: now))
        }
        if let handoff { handoff.0.resume(returning: handoff.1) }
        if asksForKeyframe { onCongestion() }
    }

    /// Audio waits for the idle consumer's next wake-up while video is flowing: the last video packet came
    /// less than the merge window ago. Any video packet releases what waits, so nothing waits longer.
    private func holdsAudio(_ state: State, now: UInt64) -> Bool {
        guard audioMergeNanoseconds > 0, let lastVideo = state.lastVideoPush else { return false }
        return now - lastVideo < audioMergeNanoseconds
    }

    /// The oldest `limit` packets (or all), in order, counted as delivered.
    private static func take(upTo limit: Int, _ state: inout State, now: UInt64) -> [EncodedPacket] {
        let batch = Array(state.items.prefix(limit))
        state.items.removeFirst(batch.count)
        state.bytes = state.items.isEmpty ? 0 : state.bytes - batch.reduce(0) { $0 + $1.payload.count }
        state.delivered += batch.count
        for packet in batch { recordLatency(packet, &state, now: now) }
        return batch
    }

    /// The drop policy: decides whether `packet` may enter, making room by dropping if needed.
    private func admit(_ packet: EncodedPacket, _ state: inout State, asksForKeyframe: inout Bool) -> Bool {
        if packet.kind == .video, state.droppingVideo {
            guard packet.isKeyframe else {
                state.videoDropped += 1
                asksForKeyframe = Self.asksForKeyframe(&state)
                return false
            }
            state.droppingVideo = false
        }
        if !hasRoom(for: packet, state) {
            // Overflow: everything video that is queued goes, and video stays off until a keyframe.
            asksForKeyframe = Self.asksForKeyframe(&state)
            state.congestionEvents += 1
            let before = state.items.count
            state.items.removeAll { $0.kind == .video }
            let removed = before - state.items.count
            state.videoDropped += removed
            state.bytes = state.items.reduce(0) { $0 + $1.payload.count }
            if packet.kind == .video, !packet.isKeyframe {
                state.droppingVideo = true
                state.videoDropped += 1
                return false
            }
            // A keyframe starts video again. Audio that overflowed a queue holding video leaves the next
            // P-frame without the frames it refers to: video waits for a keyframe (this went unseen while
            // every overflow also made the encoder's next frame a keyframe).
            if packet.kind == .video {
                state.droppingVideo = false
            } else if removed > 0 {
                state.droppingVideo = true
            }
            while !hasRoom(for: packet, state), let oldest = state.items.popFirst() {
                state.bytes -= oldest.payload.count
                state.audioDropped += 1
            }
        }
        return true
    }

    /// Whether to ask the encoder for a keyframe now: not again until the consumer has taken something since
    /// the last ask. While a link is down every frame overflows; asking each time made the encoder emit a
    /// keyframe for nearly every frame (the publisher's keyframe count rose by ~30 a second through a 10 s
    /// elevator), each one large and each one dropped. Once the link moves again, the next refused frame
    /// asks.
    private static func asksForKeyframe(_ state: inout State) -> Bool {
        guard state.keyframeAskedAtDelivered != state.delivered else { return false }
        state.keyframeAskedAtDelivered = state.delivered
        return true
    }

    private func hasRoom(for packet: EncodedPacket, _ state: State) -> Bool {
        Self.hasRoom(forBytes: packet.payload.count, state, capacity: capacity, byteCapacity: byteCapacity)
    }

    private static func hasRoom(forBytes bytes: Int, _ state: State, capacity: Int, byteCapacity: Int) -> Bool {
        state.items.isEmpty || (state.items.count < capacity && state.bytes + bytes <= byteCapacity)
    }

    /// Whether a packet of `bytes` would enter now without dropping anything: the same rule the drop
    /// policy applies, so a producer that waits for it never overflows the queue (a count alone missed the
    /// byte bound). Cheap: no percentiles.
    public func hasRoom(forBytes bytes: Int) -> Bool {
        state.withLock { Self.hasRoom(forBytes: bytes, $0, capacity: capacity, byteCapacity: byteCapacity) }
    }

    private static func recordLatency(_ packet: EncodedPacket, _ state: inout State, now: UInt64) {
        guard let capture = packet.captureNanoseconds else { return }
        let milliseconds = now > capture ? Double(now - capture) / 1e6 : 0
        switch packet.kind {
        case .video: state.videoLatency.record(milliseconds: milliseconds)
        case .audio: state.audioLatency.record(milliseconds: milliseconds)
        }
    }

    /// Ends the stream: the consumer drains what is queued, then gets nil.
    public func finish() {
        let handoff: (CheckedContinuation<[EncodedPacket], Never>, [EncodedPacket])? = state.withLock { state in
            state.finished = true
            guard let waiter = state.waiter else { return nil }
            state.waiter = nil
            // Audio held for video leaves now; an empty batch ends the stream.
            return (waiter, PacketQueue.take(upTo: state.waiterLimit, &state, now: clock()))
        }
        if let handoff { handoff.0.resume(returning: handoff.1) }
    }

    /// The next packet without waiting, or nil if none is queued.
    public func poll() -> EncodedPacket? {
        state.withLock { state in
            guard let packet = state.items.popFirst() else { return nil }
            state.bytes -= packet.payload.count
            state.delivered += 1
            PacketQueue.recordLatency(packet, &state, now: clock())
            return packet
        }
    }

    /// The oldest `limit` packets (or all queued), waiting for at least one; empty once finished and
    /// drained, or when the consuming task is cancelled. Audio the idle consumer would be woken for alone
    /// may first wait for video (see `audioMergeNanoseconds`); what is already queued returns at once.
    ///
    /// Why a limit: the consumer's send returns once its bytes are in the socket, which is the engine's
    /// backpressure. Taking the whole queue at once would move up to `capacity` packets into the network
    /// layer's buffer on a slow link, doubling latency and hiding congestion from the drop policy.
    public func nextBatch(limit: Int = 4) async -> [EncodedPacket] {
        precondition(limit > 0, "a batch holds at least one packet")
        if Task.isCancelled { return [] }
        state.withLock { $0.consumerCancelled = false }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<[EncodedPacket], Never>) in
                let immediate: [EncodedPacket]? = state.withLock { state in
                    if !state.items.isEmpty { return PacketQueue.take(upTo: limit, &state, now: clock()) }
                    if state.finished || state.consumerCancelled { return [] }
                    precondition(state.waiter == nil, "PacketQueue has one consumer")
                    state.waiter = continuation
                    state.waiterLimit = limit
                    return nil
                }
                if let immediate { continuation.resume(returning: immediate) }
            }
        } onCancel: {
            let waiter = state.withLock { state in
                state.consumerCancelled = true
                defer { state.waiter = nil }
                return state.waiter
            }
            waiter?.resume(returning: [])
        }
    }

    /// True while the consumer waits in `nextBatch` (tests use it to push at a known point).
    var hasWaitingConsumer: Bool { state.withLock { $0.waiter != nil } }

    /// The queued bytes and the packets dropped for congestion so far, without the percentiles `snapshot`
    /// sorts.
    public var load: (bytes: Int, droppedPackets: Int) {
        state.withLock { ($0.bytes, $0.videoDropped + $0.audioDropped) }
    }

    /// The packets dropped for congestion so far, by track.
    public var droppedPackets: (video: Int, audio: Int) {
        state.withLock { ($0.videoDropped, $0.audioDropped) }
    }

    public var snapshot: Snapshot {
        state.withLock { state in
            Snapshot(
                depth: state.items.count, bytes: state.bytes, capacity: capacity, byteCapacity: byteCapacity,
                highWater: state.highWater, videoPacketsDropped: state.videoDropped, audioPacketsDropped: state.audioDropped,
                congestionEvents: state.congestionEvents, droppingVideoUntilKeyframe: state.droppingVideo,
                videoLatencyP50: state.videoLatency.percentile(0.5), videoLatencyP99: state.videoLatency.percentile(0.99),
                audioLatencyP50: state.audioLatency.percentile(0.5), audioLatencyP99: state.audioLatency.percentile(0.99),
                packetsDelivered: state.delivered)
        }
    }
}
