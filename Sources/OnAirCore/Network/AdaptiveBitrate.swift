/// Adaptive bitrate: turns what the send path measured into the encoder's target, as a pure value.
///
/// The owner feeds a `Sample` every second or so (the standing send queue's delay, what the wire carried, the
/// queue's drop counter) and a `tick` when nothing else happens; each change comes back as a `.retarget` with
/// the old and new target and the reason, which the owner applies to the encoder and logs as an `abr` event.
///
/// Going down, in order: the mode's next bitrate (a ladder rung, or the measured throughput less headroom
/// and the audio track's share), then the floor, then the reduced frame rate at the floor, then audio-only
/// unless `requireVideo`. After any change the machine waits `settleTime` before stepping down again, and a
/// queue that is shrinking is left to drain, so one backlog does not walk the whole ladder.
///
/// Going up: the ladder climbs one rung per quiet interval, and a rung that meets congestion doubles the next
/// wait (up to `maximumBackoff`). Throughput remembers what the link carried when it last congested (its
/// capacity): it climbs freely to `throughputHeadroom` of that, and past it only by a probe — a step to
/// `probeGrowth` times the stream, tried after the backed-off interval, taken back as soon as a standing queue
/// of `probeQueueLimit` shows, and raising the capacity when the link carried it. Failed probes double the
/// wait, up to `maximumBackoff` intervals. So a capped link is not overfilled every few seconds (make bench,
/// abr: climbing a tenth of the ceiling every 3 s kept the sent rate at the 800 kbit/s cap 94 % of the time),
/// while a lifted cap is found within a backed-off interval and a few probes — or sooner: while the backoff
/// holds a probe back, a burst of held-back media asks the link whether it has room (`AdaptiveBitrate+Burst`).
public struct AdaptiveBitrate: Sendable, Equatable {
    /// What the send path measured.
    public struct Sample: Sendable, Equatable {
        public var time: SessionTime
        /// How long the media that stood in the send queue all window takes to leave (`SendPathMeter`).
        public var queueDelay: Duration
        /// bit/s the wire carried over the last window, audio and video.
        public var throughput: Int
        /// The queue's congestion drops since the start (a counter: only its growth counts).
        public var droppedPackets: Int
        /// bit/s the encoders produced over the last second (0: not known). More offered than carried is a
        /// queue growing now, a second before it stands.
        public var offered: Int
        /// The most the path's own queues held a packet during the window (the kernel's smoothed round trip
        /// above its least, or time waiting for the receiver's window); nil: not known. A path that queues
        /// nothing even while keyframes pass has room far past the stream: a lifted cap.
        public var pathQueueing: Duration?

        public init(
            time: SessionTime, queueDelay: Duration, throughput: Int, droppedPackets: Int, offered: Int = 0, pathQueueing: Duration? = nil
        ) {
            self.time = time
            self.queueDelay = queueDelay
            self.throughput = throughput
            self.droppedPackets = droppedPackets
            self.offered = offered
            self.pathQueueing = pathQueueing
        }
    }

    public enum Input: Sendable, Equatable {
        case sample(Sample)
        /// Time passed with nothing measured: recovery may be due.
        case tick(SessionTime)
    }

    public enum Action: Sendable, Equatable {
        case retarget(AdaptiveBitrateChange)
        /// Hold the media back for `hold`, then send it at once: a burst past the stream's rate whose path
        /// queueing says whether the link has room, without a target that can fail (`AdaptiveBitrate+Burst`).
        case burst(hold: Duration)
    }

    /// A step up whose verdict is not in yet: the target it left, when, and the capacity known then.
    struct Probe: Sendable, Equatable {
        var from: AdaptiveBitrateTarget
        var started: SessionTime
        var capacity: Int?
        /// Started by a quiet path before the backed-off wait was over.
        var byQuietPath = false
        /// Started by a burst that drained without queueing, within `failedProbeSpacing` of a failed probe.
        var byBurst = false
    }

    public let configuration: AdaptiveBitrateConfiguration
    public private(set) var target: AdaptiveBitrateTarget
    private var lastChange: SessionTime?
    private var lastCongestion: SessionTime?
    private var droppedSoFar = 0
    var probe: Probe?
    /// Multiplies the wait before a probe: doubled by each failed probe (up to `maximumBackoff`), back to 1
    /// when a probe holds, so a link that cannot take more is not re-probed every few seconds, while a
    /// lifted cap is still found within a few intervals.
    var backoff = 1
    /// When the last throughput probe failed.
    var lastFailedProbe: SessionTime?
    /// A probe that a quiet path started before its backed-off wait failed: the path reads quiet under its
    /// cap, so from then on its quiet starts no probe within `failedProbeSpacing` of any failed one — until a
    /// probe the wire proved (`held`) shows the link has changed.
    var quietDistrusted = false
    /// Burst probing (`AdaptiveBitrate+Burst`): the one asked for and not judged yet, when the last went, when
    /// one last drained without queueing, the hold the next asks for, and whether bursts are fooled by this
    /// link even at the longest hold.
    var burst: Burst?
    var lastBurst: SessionTime?
    var burstPassed: SessionTime?
    var burstHold: Duration
    var burstDistrusted = false
    /// The ladder's probes are its rungs, at most four quiet intervals apart. Throughput's each cost the link
    /// a second or two at its cap, so after repeated failures at the same capacity they come up to eight
    /// recovery intervals (24 s) apart: the longer a cap has held, the rarer a probe past it.
    public var maximumBackoff: Int { configuration.mode == .throughput ? 8 : 4 }
    /// Throughput: bit/s (audio and video) the link carried while a standing queue showed it full, or
    /// more that it carried since; nil until congestion was seen.
    private(set) var capacity: Int?
    private var previousQueueDelay: Duration?
    /// The newest sample's standing queue: a probe waits until what the last one left has drained.
    var latestQueueDelay: Duration = .zero
    /// The most the wire carried in a sample since the last change: a source that does not fill its target
    /// (a simple picture) is not asked for more, which would prove nothing about the link.
    private var carriedSinceChange: Int?
    /// What the wire carried in one congested sample.
    struct Carried: Sendable, Equatable {
        var time: SessionTime
        var bitsPerSecond: Int
    }
    private var congested: [Carried] = []
    /// The first of the samples in a row whose path queued nothing (`quietPathQueueing`) and whose send
    /// queue stood empty; nil when the newest did not.
    var quietPathSince: SessionTime?
    /// How far back congested samples count towards the link's rate.
    static let rateSpan = Duration.seconds(3)
    /// Past this share of the target the source is filling it.
    static let fillShare = 0.8
    /// Past this many times the known capacity, the link has carried more than was known.
    static let growthMargin = 1.2
    /// Offered past this many times the carried rate, the link is the bottleneck.
    static let overOffer = 1.15
    /// After a failed probe, its backlog is drained within this long.
    static let drainTime = Duration.seconds(2)
    /// A climb to the known capacity's headroom smaller than this share of the target is not worth a change
    /// (the capacity is re-measured at each congestion and moves by a few kbit/s).
    static let smallestClimb = 0.05

    public init(_ configuration: AdaptiveBitrateConfiguration) {
        self.configuration = configuration
        target = AdaptiveBitrateTarget(videoBitrate: configuration.ceiling, framesPerSecond: configuration.framesPerSecond)
        burstHold = configuration.burstHold ?? .zero
    }

    /// A probe past the known capacity is out, its verdict not in yet: a step down now is that probe failing,
    /// not a congestion drop.
    public var isProbing: Bool { probe != nil }

    /// The operator's own target: where recovery ends.
    public var top: AdaptiveBitrateTarget {
        AdaptiveBitrateTarget(videoBitrate: configuration.ceiling, framesPerSecond: configuration.framesPerSecond)
    }

    public mutating func handle(_ input: Input) -> [Action] {
        guard configuration.mode != .off else { return [] }
        switch input {
        case let .sample(sample):
            defer { previousQueueDelay = sample.queueDelay }
            latestQueueDelay = sample.queueDelay
            if let queueing = sample.pathQueueing, queueing < configuration.quietPathQueueing, sample.queueDelay == .zero {
                quietPathSince = quietPathSince ?? sample.time
            } else {
                quietPathSince = nil
            }
            judgeBurst(sample)
            carriedSinceChange = max(carriedSinceChange ?? 0, sample.throughput)
            let newDrops = max(0, sample.droppedPackets - droppedSoFar)
            droppedSoFar = max(droppedSoFar, sample.droppedPackets)
            if let reason = congestion(sample, newDrops: newDrops) ?? probeFailure(sample) {
                lastCongestion = sample.time
                let measured = linkRate(sample)
                if configuration.mode == .throughput, measured > 0 { capacity = measured }
                if let probe { return failed(probe, sample: sample, measured: measured, reason: reason) }
                guard isSettled(at: sample.time), !isDraining(sample) else { return [] }
                return change(to: lower(measured: measured), at: sample.time, reason: reason)
            }
            if let known = capacity, sample.queueDelay < configuration.probeQueueLimit,
               Double(sample.throughput) > Double(known) * Self.growthMargin {
                capacity = sample.throughput
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

    /// A throughput probe fails on a standing queue of `probeQueueLimit`, or as soon as the encoders offer
    /// `overOffer` times what the wire carries while it carries no more than the link was known to take: the
    /// queue is growing, and waiting for it to stand costs the viewer a second more of latency (the encoder
    /// takes two seconds to reach a new target; measured on the weak-signal scenario, the subscriber's
    /// glass-to-glass peaked near 400 ms with the standing queue alone).
    private func probeFailure(_ sample: Sample) -> AdaptiveBitrateChange.Reason? {
        guard configuration.mode == .throughput, let probe else { return nil }
        if sample.queueDelay >= configuration.probeQueueLimit { return .queueDelay(milliseconds: sample.queueDelay.wholeMilliseconds) }
        guard let known = probe.capacity, sample.throughput > 0,
              Double(sample.throughput) <= Double(known) * Self.growthMargin,
              Double(sample.offered) > Double(sample.throughput) * Self.overOffer else { return nil }
        return .linkFull(offered: sample.offered, carried: sample.throughput)
    }

    /// A queue that shrank by a tenth since the last sample: the last step down is working; another would
    /// undershoot. Drops do not count against it: an overflowing backlog keeps dropping to the next keyframe
    /// while it drains (make bench, abr: the cap's first second cost 2500k → 312k, and the drops of the
    /// second after it, with the queue down from 5.9 s to 1.9 s, halved the frame rate as well).
    private func isDraining(_ sample: Sample) -> Bool {
        guard let previous = previousQueueDelay else { return false }
        return sample.queueDelay < previous * 9 / 10
    }

    /// A step up met congestion. Ladder: the next wait doubles and the usual step down follows. Throughput:
    /// back at once (no settling: the probe is what filled the queue) to where it came from, or lower if the
    /// link now carries less.
    private mutating func failed(_ probe: Probe, sample: Sample, measured: Int, reason: AdaptiveBitrateChange.Reason) -> [Action] {
        self.probe = nil
        backoff = min(maximumBackoff, backoff * 2)
        if configuration.mode == .throughput {
            lastFailedProbe = sample.time
            if probe.byQuietPath { quietDistrusted = true }
            if probe.byBurst { burstFooled() }
        }
        guard configuration.mode == .throughput else {
            guard isSettled(at: sample.time) else { return [] }
            return change(to: lower(measured: measured), at: sample.time, reason: reason)
        }
        // Below where it came from by what drains the probe's backlog within `drainTime` at the rate the
        // link carries; recovery climbs back to the headroom an interval later.
        let backlogBits = Double(sample.queueDelay.wholeMilliseconds) * Double(measured) / 1000
        let drain = backlogBits / (Double(Self.drainTime.wholeMilliseconds) / 1000)
        var back = probe.from
        let below = Self.wholeKilobits(Double(min(back.videoBitrate, lower(measured: measured).videoBitrate)) - drain)
        back.videoBitrate = max(configuration.floor, below)
        return change(to: back, at: sample.time, reason: reason)
    }

    /// What the link carries, from the congested samples of the last `rateSpan` (this one included): their
    /// mean. Through a lossy bottleneck one second's acknowledged bytes swing either way — TCP recovering a
    /// loss acknowledges little, then a whole window at once (make bench, abr: 358 kbit/s, then 1292 kbit/s,
    /// through an 800 kbit/s cap) — and one reading alone either dropped the target to the floor or taught
    /// a capacity half again too high.
    private mutating func linkRate(_ sample: Sample) -> Int {
        congested.removeAll { sample.time.since($0.time) > Self.rateSpan }
        congested.append(Carried(time: sample.time, bitsPerSecond: sample.throughput))
        return congested.reduce(0) { $0 + $1.bitsPerSecond } / congested.count
    }

    private func isSettled(at time: SessionTime) -> Bool {
        guard let lastChange else { return true }
        return time.since(lastChange) >= configuration.settleTime
    }

    private mutating func recover(at time: SessionTime) -> [Action] {
        if configuration.mode == .throughput, let probe {
            // The probe's verdict: it held once the wire carried more than the link was known to take (or, with
            // no capacity known, what the probe asked), after an interval without a standing queue. Until then
            // it has tested nothing (an encoder takes a second or more to reach a new target, a simple picture
            // never does), and nothing climbs past it; a standing queue fails it.
            // A path that stayed quiet with the probe out carried it without queueing: it is released too, but
            // only a probe the wire proved (`held`) resets the backoff — a quiet reading can be a keyframe that
            // fit the bottleneck's burst, and a reset on it let the next probes fail 3 s and 6 s apart — and of
            // those only one that found room the link did not have (`foundRoom`): one carried a hair past the
            // known capacity (an encoder under its target asks little more than the link had carried) proves
            // no change. Make bench's steady 800k cap saw such a probe (716k, 762k carried against a known
            // 723k) reset the backoff and the next, 6 s later, fail at 1138k: the rate never settled.
            let proved = held(probe)
            guard time.since(probe.started) >= configuration.recoveryInterval, proved || isPathQuiet(at: time) else { return [] }
            self.probe = nil
            if proved, foundRoom(probe) {
                backoff = 1
                quietDistrusted = false
                burstDistrusted = false
            }
        }
        guard target != top else { return [] }
        let quiet = isPathQuiet(at: time)
        let burstProved = hasBurstEvidence(at: time)
        let next = higher(boosted: quiet || burstProved)
        guard next != target, isFilled || next.videoBitrate == target.videoBitrate else { return [] }
        let isProbe = configuration.mode == .ladder || isPastCapacity(next)
        if isProbe, configuration.mode == .throughput, latestQueueDelay * 3 > configuration.probeQueueLimit { return [] }
        let quietSince = max(lastChange ?? time, lastCongestion ?? time)
        let waited = time.since(quietSince)
        guard isDue(isProbe: isProbe, quiet: quiet, waited: waited, at: time) else {
            // A climb to the known capacity comes first unless a burst shows room: ask before it, too.
            return askBurst(isProbe: isProbe || isPastCapacity(higher(boosted: true)), waited: waited, at: time)
        }
        if configuration.mode == .ladder, probe != nil { backoff = 1 }
        let old = target
        let early = waited < backedOffWait
        let byBurst = early && isProbe && burstProved
        let actions = change(to: next, at: time, reason: configuration.mode == .ladder ? .quietInterval : .recovery)
        if isProbe { probe = Probe(from: old, started: time, capacity: capacity, byQuietPath: early && !byBurst, byBurst: byBurst) }
        if byBurst { burstPassed = nil }
        return actions
    }

    /// The mode's interval between steps up.
    var baseWait: Duration { configuration.mode == .ladder ? configuration.quietInterval : configuration.recoveryInterval }
    /// The wait before a probe that the path's quiet does not shorten.
    var backedOffWait: Duration { baseWait * backoff }

    /// Whether the next step may go after `waited` without congestion or change: a climb after the base
    /// interval, a probe after the backed-off one — or, on a quiet path, after the base interval, unless the
    /// quiet is distrusted and a probe failed within `failedProbeSpacing` (``AdaptiveBitrateConfiguration/failedProbeSpacing``)
    /// — or after a burst that drained without queueing (`AdaptiveBitrate+Burst`), whatever the path read.
    private func isDue(isProbe: Bool, quiet: Bool, waited: Duration, at time: SessionTime) -> Bool {
        guard waited >= baseWait else { return false }
        guard isProbe, waited < backedOffWait else { return true }
        if hasBurstEvidence(at: time) { return true }
        guard quiet else { return false }
        return !isSpacedOut(at: time)
    }

    /// A probe failed less than `failedProbeSpacing` ago and the quiet alone may not start another now: with
    /// bursts (the owner can hold its sends) only a burst that drained without queueing may; without them,
    /// once the quiet has fooled a probe.
    private func isSpacedOut(at time: SessionTime) -> Bool {
        guard let lastFailedProbe, time.since(lastFailedProbe) < configuration.failedProbeSpacing else { return false }
        return configuration.burstHold != nil || quietDistrusted
    }

    private mutating func change(to new: AdaptiveBitrateTarget, at time: SessionTime, reason: AdaptiveBitrateChange.Reason) -> [Action] {
        guard new != target else { return [] }
        let old = target
        target = new
        lastChange = time
        probe = nil
        carriedSinceChange = nil
        return [.retarget(AdaptiveBitrateChange(old: old, new: new, reason: reason))]
    }

    /// Throughput: the path has queued nothing for `quietPathSpan` (a lifted cap; see the configuration).
    func isPathQuiet(at time: SessionTime) -> Bool {
        guard configuration.mode == .throughput, let since = quietPathSince else { return false }
        return time.since(since) >= configuration.quietPathSpan
    }

    /// The wire carries what the target asks for (or nothing was measured since the last change).
    private var isFilled: Bool {
        guard configuration.mode == .throughput, let carried = carriedSinceChange else { return true }
        return Double(carried) >= Self.fillShare * Double(target.videoBitrate + configuration.audioBitrate)
    }

    /// The wire carried what `probe` was out to learn: more than the capacity known when it started, or (none
    /// known) its target. Past the known capacity, carrying 90 % of what the probe asked is enough: a probe of
    /// 1.5 × a stream at 80 % of the capacity asks exactly `growthMargin` times it, and an encoder a hair
    /// under its target left such a probe out, unproved, for good (the simulated lift in ProbeFailureSpacingTests).
    private func held(_ probe: Probe) -> Bool {
        let carried = Double(carriedSinceChange ?? 0)
        guard let known = probe.capacity else { return isFilled }
        let asked = Double(target.videoBitrate + configuration.audioBitrate)
        return carried > Double(known) * Self.growthMargin || (carried > Double(known) && carried >= asked * 0.9)
    }

    /// The wire carried more than `growthMargin` times the capacity known when `probe` started (none known:
    /// it held): room the link did not have before.
    private func foundRoom(_ probe: Probe) -> Bool {
        guard let known = probe.capacity else { return true }
        return Double(carriedSinceChange ?? 0) > Double(known) * Self.growthMargin
    }

    /// The video bitrate the known capacity takes with headroom, audio aside; nil when none is known.
    var safeVideoBitrate: Int? {
        capacity.map { Self.wholeKilobits(Double($0) * configuration.throughputHeadroom - Double(configuration.audioBitrate)) }
    }

    /// A throughput target past the known capacity's headroom (or any with no capacity known) is a probe.
    private func isPastCapacity(_ next: AdaptiveBitrateTarget) -> Bool {
        guard configuration.mode == .throughput, next.videoBitrate > target.videoBitrate else { return false }
        guard let safe = safeVideoBitrate else { return true }
        return next.videoBitrate > safe
    }
}
