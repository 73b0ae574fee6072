/// Burst probing: finding a lifted cap without a rate step that can fail.
///
/// Why: a failed probe costs the link a second or two at its cap, so failed probes stay at least
/// `failedProbeSpacing` (20 s) apart on a path whose quiet has fooled a probe once. A cap lifted just after
/// such a failure was then found 20 s late at best, past issue 23's 15 s. The path's own quiet cannot tell a
/// lifted cap from a cap whose burst allowance swallows the stream's keyframes (both read quiet); only
/// sending more at once than that allowance can. So, instead of a probe, the machine asks the owner to hold
/// the media back for `burstHold` (300 ms) and send it at once: the same bytes, no new target, a burst of
/// `hold` × the stream. Under a cap the bottleneck queues what exceeds its allowance (a 300 ms burst of
/// 640 kbit/s through an 800 kbit/s tbf with an 8 kB bucket: about 140 ms at its peak), and the kernel's
/// smoothed round trip shows it within the second; past a lifted cap it drains at line rate and nothing
/// queues. A burst that drained with under `burstQueueing` of path queueing lets the next probe go at once,
/// spacing or not. Its only cost is the hold itself: the server receives that media up to `hold` late, once
/// every `burstInterval` at most, and only while a quiet path's probes are held back by a recent failure.
///
/// A burst can still be fooled (a bottleneck whose allowance exceeds the burst): a probe it started that
/// fails doubles the next hold, up to `burstHoldLimit`; fooled at that hold, bursts start no probe within
/// `failedProbeSpacing` of a failed one until a probe holds. So the fooled probes are bounded and a steady
/// cap settles back to at most one failed probe every 20 s.
extension AdaptiveBitrate {
    /// A burst asked for: when, and how long the media was held.
    struct Burst: Sendable, Equatable {
        var started: SessionTime
        var hold: Duration
    }

    /// A burst is judged on the first sample at least this long after its release: the held media has been
    /// sent and acknowledged, and the sample's window (the most path queueing of its readings) covers it.
    static let burstVerdictDelay = Duration.milliseconds(500)
    /// A passed burst lets a probe go for this long after its verdict.
    static let burstEvidenceLife = Duration.seconds(2)

    /// Judges the burst out, if `sample` is the one that tells: passed when the path queued less than
    /// `burstQueueing`, with a standing send queue small enough that a probe could go (a few milliseconds
    /// stand at most readings of a link with room: the kernel's last segment waiting for its ACK).
    mutating func judgeBurst(_ sample: Sample) {
        guard let burst, sample.time.since(burst.started) >= burst.hold + Self.burstVerdictDelay else { return }
        self.burst = nil
        if let queueing = sample.pathQueueing, queueing < configuration.burstQueueing, sample.queueDelay * 3 <= configuration.probeQueueLimit {
            burstPassed = sample.time
        } else {
            burstPassed = nil
        }
    }

    /// A burst passed lately, and bursts have not been fooled at their longest hold.
    func hasBurstEvidence(at time: SessionTime) -> Bool {
        guard !burstDistrusted, let burstPassed else { return false }
        return time.since(burstPassed) <= Self.burstEvidenceLife
    }

    /// A probe a passed burst started failed: the bottleneck's allowance took the burst whole. The next
    /// burst holds twice as long; past `burstHoldLimit`, bursts start no probe within the spacing.
    mutating func burstFooled() {
        burstPassed = nil
        if burstHold * 2 <= configuration.burstHoldLimit {
            burstHold = burstHold * 2
        } else {
            burstDistrusted = true
        }
    }

    /// When a probe is wanted but the backoff after failed ones holds it back (none failed yet: the base
    /// interval is short enough), a burst asks the link
    /// instead: from `settleTime` after the last change (the verdict then comes about when the base interval
    /// lets a probe go), at most once every `burstInterval`, with no burst or probe out; nothing otherwise.
    /// `isProbe`: the next step up, boosted, is a probe (a climb to the old capacity would come first without
    /// a burst: a passed one skips it).
    mutating func askBurst(isProbe: Bool, waited: Duration, at time: SessionTime) -> [Action] {
        guard configuration.mode == .throughput, configuration.burstHold != nil, !burstDistrusted, burstHold > .zero,
              isProbe, backoff > 1, waited >= configuration.settleTime, waited < backedOffWait, burst == nil, probe == nil,
              latestQueueDelay * 3 <= configuration.probeQueueLimit else { return [] }
        if let lastBurst, time.since(lastBurst) < configuration.burstInterval { return [] }
        burst = Burst(started: time, hold: burstHold)
        lastBurst = time
        return [.burst(hold: burstHold)]
    }
}
