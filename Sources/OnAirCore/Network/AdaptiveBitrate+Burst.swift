/// Burst probing: finding a lifted cap without a rate step that can fail (docs/production-path.md).
///
/// Why: a failed probe costs the link a second or two at its cap, so failed probes stay apart (the backoff
/// up to 24 s; `failedProbeSpacing`, 20 s, for early ones). A cap lifted just after a failure was then found
/// 20–35 s late (issue 23 asks for 15 s). The path's own quiet does not tell reliably: on the kernel link a
/// lifted path read 2–6 ms of queueing every second (never quiet), and a cap whose burst allowance swallows
/// the keyframes reads quiet too. Only sending more at once than that allowance tells. So while the backoff
/// holds a probe back, the machine asks the owner to hold the media back for `burstHold` (300 ms) and send it
/// at once: the same bytes, no new target, a burst of `hold` × the stream. Under a cap the bottleneck queues
/// what exceeds its allowance (52–62 ms of smoothed round trip through an 800 kbit/s tbf at ~600 kbit/s);
/// past a lifted cap it drains at line rate (2–6 ms). A burst that drained with under `burstQueueing` lets
/// the probe go at once, boosted, spacing or not. Its cost is the hold: the server receives that media up to
/// `hold` late, at most once every `burstInterval`, only while the backoff holds a probe back.
///
/// A burst can still be fooled (a bottleneck whose allowance exceeds the burst): a probe it started that
/// fails doubles the next hold, up to `burstHoldLimit`; fooled at that hold, bursts start no probe until a
/// probe holds. So the fooled probes are bounded and a steady cap settles back to its backed-off probes.
extension AdaptiveBitrate {
    /// A burst asked for: when, how long the media was held, and the most path queueing and standing queue
    /// of the samples since (each sample's window ends where the next begins, so together they cover the
    /// release wherever it fell: judged on one sample alone, a burst asked just after a sample was judged on a
    /// window that began after its release, and under the cap it read as passed — the steady kernel cap then
    /// saw failed probes 6–13 s apart).
    struct Burst: Sendable, Equatable {
        var started: SessionTime
        var hold: Duration
        var mostQueueing: Duration?
        var mostQueueDelay: Duration = .zero
    }

    /// A burst is judged on the first sample at least this long after its release: the held media has been
    /// sent and acknowledged, and the samples since it was asked cover its release and drain.
    static let burstVerdictDelay = Duration.milliseconds(500)
    /// A passed burst lets a probe go for this long after its verdict.
    static let burstEvidenceLife = Duration.seconds(2)

    /// Judges the burst out, if `sample` is the one that tells: passed when the path queued less than
    /// `burstQueueing`, with a standing send queue small enough that a probe could go (a few milliseconds
    /// stand at most readings of a link with room: the kernel's last segment waiting for its ACK).
    mutating func judgeBurst(_ sample: Sample) {
        guard var burst, sample.time > burst.started else { return }
        burst.mostQueueing = [burst.mostQueueing, sample.pathQueueing].compactMap { $0 }.max()
        burst.mostQueueDelay = max(burst.mostQueueDelay, sample.queueDelay)
        guard sample.time.since(burst.started) >= burst.hold + Self.burstVerdictDelay else {
            self.burst = burst
            return
        }
        self.burst = nil
        if let queueing = burst.mostQueueing, queueing < configuration.burstQueueing, burst.mostQueueDelay * 3 <= configuration.probeQueueLimit {
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
