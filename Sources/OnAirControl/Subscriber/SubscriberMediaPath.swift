import OnAirCore
import OnAirMedia
import OnAirNet
import Synchronization

/// The way a play's media packets go from the player's task to the decoder thread without turning the
/// front end's loop (docs/design.md §2.2), and what they teach the controller (``SubscriberMediaFacts``).
///
/// Why: a loop turn per packet (about 80 a second) rebuilt the front end's report each time. The rule:
/// - Packets of the current play go straight to the decoder while no move is in flight; the facts are
///   computed here, under the lock the loop reads them with, and the loop hears only what changes the session
///   (a verdict, a measured frame rate).
/// - Back-pressure, not loss: when the decoder's bounded queue is full the player's task suspends until the
///   decoder thread takes a packet, so a burst (a Wowza/Red5-style server sends a run of frames at once)
///   waits its turn instead of overflowing the queue.
/// - A live subscriber that truly cannot keep up does not grow its latency without bound: once the queue
///   has been full for ``maxWait`` on end (every packet in that time had to wait, whether the decoder is
///   stuck or only slower than the stream) the packet is pushed anyway and the queue drops its video and
///   the video to the next keyframe, counted (`droppedFrames`) and logged, once per such episode.
/// - Every other event (status, tracks, the end of the connection, a ReconnectRequest) goes to the loop, and
///   the task waits until the loop has handled it before it sends the next packet, so order is kept.
final class SubscriberMediaPath: Sendable {
    /// How long the decoder's queue may stay full before the player's task lets it drop: the latency a live
    /// subscriber may gain. 3 s was 4–6× what `SubscriberAggregateTests`' 5 s file sent at once needs on an
    /// idle machine, and a cold first run on a loaded one lost 49 frames to it; 10 s keeps the margin ≥ 10×.
    static let maxWait: Duration = .seconds(10)

    private struct State: Sendable {
        /// The connection whose packets go straight to the decoder; nil while a move is in flight (or its
        /// duplicate audio is filtered), when every packet goes through the loop.
        var direct: Int?
        var decoder: DecoderThread?
        var facts = SubscriberMediaFacts()
        /// Since when every packet found the decoder's queue full; nil while packets find room at once.
        var fullSince: ContinuousClock.Instant?
    }

    private let state = Mutex(State())
    private let clock: SessionClock

    init(clock: SessionClock) { self.clock = clock }

    /// Reads or changes the facts (the loop's side).
    func withFacts<T>(_ body: (inout SubscriberMediaFacts) -> T) -> T { state.withLock { body(&$0.facts) } }

    /// The connection whose packets may skip the loop, or nil.
    func setDirect(_ generation: Int?) { state.withLock { $0.direct = generation } }

    func setDecoder(_ decoder: DecoderThread?) { state.withLock { $0.decoder = decoder } }

    /// Reads a player's events until it ends: packets straight to the decoder when allowed, the rest posted
    /// to the loop in order.
    func pump(_ player: RTMPPlayer, generation: Int, post: @escaping @Sendable (SubscriberInput) -> Void) async {
        for await event in player.events {
            switch event {
            case .packet(let packet):
                if await deliver(packet, generation: generation, post: post) { continue }
                await posted(.player(generation: generation, event), post)
            case .undecodable(let kind, let bytes, let timestamp):
                // Counted where the packets' facts are, without a loop turn; a move's packets go through the loop.
                let counted = state.withLock { state in
                    guard state.direct == generation else { return false }
                    state.facts.undecodable(kind: kind, bytes: bytes, timestamp: timestamp)
                    return true
                }
                if !counted { post(.player(generation: generation, event)) }
            case .message, .metadata, .notice, .warning, .streamBegin, .streamEOF, .streamDry:
                // Nothing a later packet depends on: no need to wait.
                post(.player(generation: generation, event))
            case .status, .videoTrack, .audioTrack, .closed, .reconnectRequest:
                await posted(.player(generation: generation, event), post)
            }
        }
    }

    /// Posts `input` and returns once the loop has handled it (or dropped it).
    private func posted(_ input: SubscriberInput, _ post: @escaping @Sendable (SubscriberInput) -> Void) async {
        guard case .player(let generation, let event, _) = input else { return post(input) }
        await withCheckedContinuation { continuation in
            post(.player(generation: generation, event, handled: SubscriberAck(continuation)))
        }
    }

    /// Hands a packet of connection `generation` to the decoder, once it has room; false when the packet
    /// must go through the loop instead.
    private func deliver(_ packet: EncodedPacket, generation: Int, post: @Sendable (SubscriberInput) -> Void) async -> Bool {
        let (decoder, fullSince) = state.withLock { $0.direct == generation ? ($0.decoder, $0.fullSince) : (nil, nil) }
        var roomy = true
        if let decoder, !decoder.hasRoom(forBytes: packet.payload.count) {
            let start = fullSince ?? ContinuousClock.now
            if fullSince == nil { state.withLock { $0.fullSince = start } }
            let left = Self.maxWait - (ContinuousClock.now - start)
            roomy = left > .zero ? await decoder.waitForRoom(forBytes: packet.payload.count, timeout: left) : false
        } else if fullSince != nil {
            state.withLock { $0.fullSince = nil }
        }
        let now = clock.now
        let outcome = state.withLock { state -> SubscriberMediaFacts.News? in
            // A play, a stop or a move may have replaced this connection while it waited.
            guard state.direct == generation else { return nil }
            let news = state.facts.packet(packet, at: now)
            state.decoder?.submit(packet)
            // The overflow empties the queue's video: the next episode starts afresh.
            if !roomy { state.fullSince = nil }
            return news
        }
        guard let outcome else { return false }
        if !outcome.isEmpty {
            post(.media(generation: generation, verdict: outcome.verdict, measuredTrack: outcome.measuredTrack))
        }
        if !roomy {
            post(.player(generation: generation, .warning(
                "the decoder cannot keep up: its queue was full for \(Self.maxWait); video drops to the next keyframe (droppedFrames counts it)")))
        }
        return true
    }
}
