/// Adaptive bitrate with several outputs and one encode: which output's own ABR target the encoder follows
/// (docs/multi-destination.md, "ABR").
///
/// The choice: one encode at what the slowest *healthy* output carries. Each output runs its own
/// `AdaptiveBitrate` on its own path (its server's acknowledgements, its own queue); the encoder takes
/// the lowest of their targets, counting only outputs that are live and have not sat at the floor for
/// `exclusionAfter`. Why one encode: a second encode per slow destination doubles the CPU of the most
/// expensive stage (the bench asks ≤ 1.1× of one output's CPU for three) and the pattern,
/// clock and marker stay one picture. Why the lowest healthy: a destination that carries less than the
/// others would otherwise drop to a keyframe every few seconds, which its viewers see as freezes; a lower
/// bitrate is the better picture for it, and every viewer sees the same stream.
///
/// Why exclude: a destination that is down, reconnecting, or that cannot carry even the floor is not
/// helped by a lower bitrate (its queue drops to keyframes whatever the rate) and would starve the
/// others of quality for as long as it stays bad. A not-live output counts for nothing at once; a live
/// one at the floor stops counting after `exclusionAfter`, long enough for its own ABR to have tried the
/// floor, the reduced frame rate and (for a short outage) waited out the queue. When it climbs off the
/// floor it counts again. With no output counted (all down), the encoder keeps the operator's top target.
///
/// Pure: time comes in with each call; the owner feeds each output's target and phase.
public struct OutputRateDecision: Sendable, Equatable {
    /// One output's state as the owner sees it now.
    public struct Vote: Sendable, Equatable {
        /// 1-based output number.
        public var output: Int
        /// What this output's own ABR asks for.
        public var target: AdaptiveBitrateTarget
        /// The server accepted the publish (STALLED included) and the connection has not been given up.
        public var live: Bool

        public init(output: Int, target: AdaptiveBitrateTarget, live: Bool) {
            self.output = output
            self.target = target
            self.live = live
        }
    }

    /// What the encoder is asked for, and which outputs the choice counted.
    public struct Decision: Sendable, Equatable {
        public var target: AdaptiveBitrateTarget
        public var counted: [Int]
        /// Outputs left out, and why (`down`, `at the floor for 10 s`).
        public var excluded: [Int: String]
    }

    /// How long a live output may sit at the floor (or audio-only) before it stops holding the others down.
    public let exclusionAfter: Duration
    public let floor: Int
    public let top: AdaptiveBitrateTarget
    /// Since when each output has sat at the floor (nil: it is above it).
    private var atFloorSince: [Int: SessionTime] = [:]

    public init(top: AdaptiveBitrateTarget, floor: Int, exclusionAfter: Duration = .seconds(10)) {
        self.top = top
        self.floor = floor
        self.exclusionAfter = exclusionAfter
    }

    public mutating func decide(_ votes: [Vote], at now: SessionTime) -> Decision {
        var counted: [Vote] = []
        var excluded: [Int: String] = [:]
        for vote in votes {
            let atFloor = vote.target.audioOnly || vote.target.videoBitrate <= floor
            if atFloor {
                atFloorSince[vote.output] = atFloorSince[vote.output] ?? now
            } else {
                atFloorSince[vote.output] = nil
            }
            if !vote.live {
                excluded[vote.output] = "down"
            } else if let since = atFloorSince[vote.output], now.since(since) >= exclusionAfter {
                excluded[vote.output] = "at the floor for \(now.since(since).wholeMilliseconds / 1000) s"
            } else {
                counted.append(vote)
            }
        }
        guard let lowest = counted.min(by: { Self.rank($0.target) < Self.rank($1.target) }) else {
            return Decision(target: top, counted: [], excluded: excluded)
        }
        return Decision(target: lowest.target, counted: counted.map(\.output), excluded: excluded)
    }

    /// Lower is less to carry: audio-only below any video, then bitrate, then frame rate.
    static func rank(_ target: AdaptiveBitrateTarget) -> (Int, Int, Double) {
        (target.audioOnly ? 0 : 1, target.videoBitrate, target.framesPerSecond)
    }
}
