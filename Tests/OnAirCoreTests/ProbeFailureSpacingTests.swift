import Foundation
import OnAirCore
import Testing

/// Issue 23, item 4: "back to ≥ 90 % of --bitrate within 15 s of a lift, while a steady cap still sees no
/// congestion drop after convergence and at most one failed probe every 20 s". Throughput ABR is driven
/// second by second over a simulated capped link, with the owner's burst (`AdaptiveBitrate+Burst`) modelled:
/// the held media sent at once queues at the cap's bottleneck, and passes whole once the cap is lifted.
@Suite("Throughput ABR: failed probes under a steady cap, and a lifted cap found fast")
struct ProbeFailureSpacingTests {
    /// How the simulated path reads while the stream fits under the cap.
    enum QuietPattern: String, Sendable, CaseIterable {
        /// Every second reads quiet: the keyframes always fit the burst (the worst case).
        case alwaysQuiet
        /// Quiet four seconds out of five (quiet spans of 3 s: just long enough).
        case mostlyQuiet
        /// Never quiet: every keyframe queues (the usual capped path).
        case neverQuiet

        func pathQueueing(at second: Int) -> Duration {
            switch self {
            case .alwaysQuiet: .microseconds(100)
            case .mostlyQuiet: second % 5 == 0 ? .milliseconds(30) : .microseconds(100)
            case .neverQuiet: .milliseconds(40)
            }
        }
    }

    /// How the path reads once the cap is lifted, bursts and all.
    enum LiftedPath: String, Sendable, CaseIterable {
        /// Nothing queues (an idle veth link).
        case quiet
        /// A few milliseconds of jitter in the smoothed round trip (a loaded machine, a real uplink): never
        /// quiet by `quietPathQueueing`, so only a burst tells the lift.
        case noisy

        var queueing: Duration { self == .quiet ? .microseconds(100) : .milliseconds(6) }
    }

    static let cap = 800_000
    static let ceiling = 2_500_000
    static let configuration = AdaptiveBitrateConfiguration(mode: .throughput, ceiling: ceiling, floor: 300_000, burstHold: .milliseconds(300))

    /// One simulated second of a link capped at `cap` bit/s (nil: lifted): a stream over the cap stands in
    /// the queue (600 ms, the cap carried, the path queueing 40 ms); one under it passes whole, the path per
    /// `pattern` — unless a burst went in the second before: under a cap it queued (60 ms), lifted it did not.
    static func sample(
        second: Int, target: AdaptiveBitrateTarget, cap: Int?, pattern: QuietPattern, lifted: LiftedPath, burst: Bool
    ) -> AdaptiveBitrate.Sample {
        let offered = target.audioOnly ? 0 : target.videoBitrate
        let time = SessionTime(milliseconds: Int64(second) * 1000)
        if let cap, offered > cap {
            return .init(time: time, queueDelay: .milliseconds(600), throughput: cap, droppedPackets: 0, offered: offered,
                         pathQueueing: .milliseconds(40))
        }
        let queueing = cap == nil ? lifted.queueing : burst ? max(.milliseconds(60), pattern.pathQueueing(at: second)) : pattern.pathQueueing(at: second)
        return .init(time: time, queueDelay: .zero, throughput: offered, droppedPackets: 0, offered: offered, pathQueueing: queueing)
    }

    struct Run {
        /// Seconds at which a probe failed (a step down with a probe out).
        var failures: [Int] = []
        /// Seconds at which the target stepped down with no probe out: the cap's congestion itself.
        var congestionDrops: [Int] = []
        var bursts: [Int] = []
        /// The first second at ≥ 90 % of the ceiling after the lift.
        var recoveredAt: Int?
    }

    /// Runs `seconds` over the capped link, the cap lifted at `liftAt` if given.
    static func run(
        pattern: QuietPattern, lifted path: LiftedPath = .quiet, seconds: Int, liftAt: Int? = nil,
        configuration: AdaptiveBitrateConfiguration = configuration
    ) -> Run {
        var abr = AdaptiveBitrate(configuration)
        var run = Run()
        var burst = false
        for second in 1...seconds {
            let lifted = liftAt.map { second >= $0 } ?? false
            let sample = Self.sample(second: second, target: abr.target, cap: lifted ? nil : cap, pattern: pattern, lifted: path, burst: burst)
            let probing = abr.isProbing
            burst = false
            let actions = abr.handle(.sample(sample))
            // ABR_TRACE=alwaysQuiet-noisy-115 (pattern, lifted path, lift second; 0: none) prints that run's seconds.
            if let trace = ProcessInfo.processInfo.environment["ABR_TRACE"], trace == "\(pattern.rawValue)-\(path.rawValue)-\(liftAt ?? 0)" {
                print("t=\(second) q=\(sample.queueDelay) path=\(sample.pathQueueing!) thr=\(sample.throughput) probing=\(probing) -> \(actions) target=\(abr.target)")
            }
            for action in actions {
                switch action {
                case let .retarget(change) where change.new.videoBitrate < change.old.videoBitrate:
                    if probing { run.failures.append(second) } else { run.congestionDrops.append(second) }
                case .retarget:
                    break
                case .burst:
                    burst = true
                    run.bursts.append(second)
                }
            }
            if let liftAt, second >= liftAt, run.recoveredAt == nil, abr.target.videoBitrate >= ceiling * 9 / 10 { run.recoveredAt = second }
        }
        return run
    }

    @Test("steady 800k cap for 600 s: no congestion drop after convergence, failed probes at least 20 s apart", arguments: QuietPattern.allCases)
    func failedProbesSpaced(pattern: QuietPattern) {
        let run = Self.run(pattern: pattern, seconds: 600)
        // The first failed probes double the backoff (3 → 6 → 12 s, by design); from the third, which takes it
        // to 24 s, none within 20 s of the one before.
        let converged = run.failures.dropFirst(2)
        let gaps = zip(converged, converged.dropFirst()).map { $1 - $0 }
        print("\(pattern.rawValue): congestion drops at \(run.congestionDrops), failed probes at \(run.failures.prefix(8))…, \(run.failures.count) in 600 s, least gap after convergence \(gaps.min() ?? 0) s, \(run.bursts.count) bursts")
        #expect(run.congestionDrops.count == 1, "the cap's first second is the only congestion drop: \(run.congestionDrops)")
        #expect(!converged.isEmpty, "no probe failed: the cap was never probed")
        #expect(gaps.allSatisfy { $0 >= 20 }, "two failed probes within 20 s: \(Array(converged))")
    }

    /// The worst moment: the cap lifted the second after a failed probe (and two, three seconds after), when
    /// the next probe may only come 20 s later. Every failed probe of the first 300 s is tried.
    @Test("a cap lifted right after a failed probe: back to 90 % of the ceiling within 15 s", arguments: QuietPattern.allCases, LiftedPath.allCases)
    func liftAfterFailedProbe(pattern: QuietPattern, lifted: LiftedPath) {
        let steady = Self.run(pattern: pattern, seconds: 300)
        var worst = 0
        for failure in steady.failures.dropFirst(2) {
            for delay in 1...3 {
                let lift = failure + delay
                let run = Self.run(pattern: pattern, lifted: lifted, seconds: lift + 60, liftAt: lift)
                let took = (run.recoveredAt ?? .max) - lift
                worst = max(worst, took)
                #expect(took <= 15, "failed probe at \(failure) s, lift at \(lift) s: back to 90 % after \(took) s")
            }
        }
        print("\(pattern.rawValue), \(lifted.rawValue) when lifted: lifted 1–3 s after a failed probe, back to 90 % of the ceiling within \(worst) s at worst")
        #expect(steady.failures.count > 3, "the steady cap was never probed: \(steady.failures)")
    }

    /// A lift at any second from 100 to 160, not only after a failure.
    @Test("a cap lifted at any moment: back to 90 % within 15 s", arguments: QuietPattern.allCases, LiftedPath.allCases)
    func liftAnyMoment(pattern: QuietPattern, lifted: LiftedPath) {
        var worst = 0
        for lift in 100...160 {
            let took = (Self.run(pattern: pattern, lifted: lifted, seconds: lift + 60, liftAt: lift).recoveredAt ?? .max) - lift
            worst = max(worst, took)
            #expect(took <= 15, "lift at \(lift) s: back to 90 % after \(took) s")
        }
        print("\(pattern.rawValue), \(lifted.rawValue) when lifted: lifted at 100…160 s, back to 90 % within \(worst) s at worst")
    }
}
