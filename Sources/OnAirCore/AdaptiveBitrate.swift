/// Adaptive bitrate: turns what the send path measured into the encoder's target, as a pure value.
///
/// The owner feeds a `Sample` every second or so (the send queue's delay, what the wire carried, the queue's
/// drop counter) and a `tick` when nothing else happens; each change comes back as a `.retarget` with the old
/// and new target and the reason, which the owner applies to the encoder and logs as an `abr` event.
///
/// Going down, in order: the mode's next bitrate (a ladder rung, or the measured throughput less headroom
/// and the audio track's share),
/// then the floor, then the reduced frame rate at the floor, then audio-only unless `requireVideo`. Going up
/// retraces the same path one step per quiet interval (longer after a step up that met congestion at once),
/// and never passes the ceiling. After any change the
/// machine waits `settleTime` before stepping down again, so one backlog that takes a moment to drain does
/// not walk the whole ladder.
public struct AdaptiveBitrate: Sendable, Equatable {
    /// What the send path measured.
    public struct Sample: Sendable, Equatable {
        public var time: SessionTime
        /// How much media waits in the send queue (newest minus oldest queued timestamp, or its age).
        public var queueDelay: Duration
        /// bit/s the wire carried over the last window, audio and video.
        public var throughput: Int
        /// The queue's congestion drops since the start (a counter: only its growth counts).
        public var droppedPackets: Int

        public init(time: SessionTime, queueDelay: Duration, throughput: Int, droppedPackets: Int) {
            self.time = time
            self.queueDelay = queueDelay
            self.throughput = throughput
            self.droppedPackets = droppedPackets
        }
    }

    public enum Input: Sendable, Equatable {
        case sample(Sample)
        /// Time passed with nothing measured: recovery may be due.
        case tick(SessionTime)
    }

    public enum Action: Sendable, Equatable {
        case retarget(AdaptiveBitrateChange)
    }

    public let configuration: AdaptiveBitrateConfiguration
    public private(set) var target: AdaptiveBitrateTarget
    private var lastChange: SessionTime?
    private var lastCongestion: SessionTime?
    private var droppedSoFar = 0
    /// The last change was a step up that has not yet lasted a whole interval.
    private var probing = false
    /// Multiplies the recovery interval: doubled by each failed probe (up to `maximumBackoff`), back to 1 when
    /// a probe holds, so a link that cannot take more is not re-probed (and its queue overflowed) every few
    /// seconds, while a lifted cap is still found again within a few intervals.
    private var backoff = 1
    public static let maximumBackoff = 4

    public init(_ configuration: AdaptiveBitrateConfiguration) {
        self.configuration = configuration
        target = AdaptiveBitrateTarget(videoBitrate: configuration.ceiling, framesPerSecond: configuration.framesPerSecond)
    }

    /// The operator's own target: where recovery ends.
    public var top: AdaptiveBitrateTarget {
        AdaptiveBitrateTarget(videoBitrate: configuration.ceiling, framesPerSecond: configuration.framesPerSecond)
    }

    public mutating func handle(_ input: Input) -> [Action] {
        guard configuration.mode != .off else { return [] }
        switch input {
        case let .sample(sample):
            let newDrops = max(0, sample.droppedPackets - droppedSoFar)
            droppedSoFar = max(droppedSoFar, sample.droppedPackets)
            if let reason = congestion(sample, newDrops: newDrops) {
                lastCongestion = sample.time
                if probing {
                    probing = false
                    backoff = min(Self.maximumBackoff, backoff * 2)
                }
                guard isSettled(at: sample.time) else { return [] }
                return change(to: lower(measured: sample.throughput), at: sample.time, reason: reason)
            }
            return recover(at: sample.time)
        case let .tick(time):
            return recover(at: time)
        }
    }

    private func congestion(_ sample: Sample, newDrops: Int) -> AdaptiveBitrateChange.Reason? {
        if sample.queueDelay > configuration.queueDelayThreshold {
            return .queueDelay(milliseconds: sample.queueDelay.wholeMilliseconds)
        }
        return newDrops > 0 ? .drops(count: newDrops) : nil
    }

    private func isSettled(at time: SessionTime) -> Bool {
        guard let lastChange else { return true }
        return time.since(lastChange) >= configuration.settleTime
    }

    private mutating func recover(at time: SessionTime) -> [Action] {
        guard target != top else { return [] }
        let quietSince = max(lastChange ?? time, lastCongestion ?? time)
        let base = configuration.mode == .ladder ? configuration.quietInterval : configuration.recoveryInterval
        guard time.since(quietSince) >= base * backoff else { return [] }
        if probing { backoff = 1 }
        let actions = change(to: higher(), at: time, reason: configuration.mode == .ladder ? .quietInterval : .recovery)
        probing = !actions.isEmpty
        return actions
    }

    private mutating func change(to new: AdaptiveBitrateTarget, at time: SessionTime, reason: AdaptiveBitrateChange.Reason) -> [Action] {
        guard new != target else { return [] }
        let old = target
        target = new
        lastChange = time
        probing = false
        return [.retarget(AdaptiveBitrateChange(old: old, new: new, reason: reason))]
    }

    // MARK: - Steps

    /// One step down from the current target.
    private func lower(measured: Int) -> AdaptiveBitrateTarget {
        var next = target
        if target.audioOnly { return next }
        if target.framesPerSecond < configuration.framesPerSecond {
            next.audioOnly = !configuration.requireVideo
            return next
        }
        if target.videoBitrate <= configuration.floor {
            next.framesPerSecond = configuration.reducedFramesPerSecond
            return next
        }
        let wanted: Int
        switch configuration.mode {
        case .off:
            return next
        case .ladder:
            wanted = rungs.first { $0 < target.videoBitrate } ?? 0
        case .throughput:
            let fromMeasure = Double(max(0, measured)) * configuration.throughputHeadroom - Double(configuration.audioBitrate)
            let belowCurrent = Double(target.videoBitrate) * configuration.throughputHeadroom
            wanted = Self.wholeKilobits(min(fromMeasure, belowCurrent))
        }
        next.videoBitrate = max(configuration.floor, wanted)
        return next
    }

    /// One step up from the current target, never past the ceiling.
    private func higher() -> AdaptiveBitrateTarget {
        var next = target
        if target.audioOnly {
            next.audioOnly = false
            return next
        }
        if target.framesPerSecond < configuration.framesPerSecond {
            next.framesPerSecond = configuration.framesPerSecond
            return next
        }
        switch configuration.mode {
        case .off:
            break
        case .ladder:
            next.videoBitrate = rungs.last { $0 > target.videoBitrate } ?? configuration.ceiling
        case .throughput:
            let step = Double(configuration.ceiling) * configuration.recoveryFraction
            next.videoBitrate = Self.wholeKilobits(Double(target.videoBitrate) + step)
        }
        next.videoBitrate = min(configuration.ceiling, next.videoBitrate)
        return next
    }

    /// The ladder's bitrates, highest first, none below the floor.
    private var rungs: [Int] {
        configuration.ladder.map { max(configuration.floor, Self.wholeKilobits(Double(configuration.ceiling) * $0)) }
    }

    /// x264 takes kbit/s: a target that is not a whole number of them would be rounded there anyway.
    private static func wholeKilobits(_ bitsPerSecond: Double) -> Int {
        guard bitsPerSecond.isFinite, bitsPerSecond > 0 else { return 0 }
        let clamped = min(bitsPerSecond, Double(Int32.max))
        return Int(clamped / 1000) * 1000
    }
}
