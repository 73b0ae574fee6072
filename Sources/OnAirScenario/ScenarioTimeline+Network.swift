import OnAirCore

/// The network figures of a run, worked out from the timeline's series when asked: how fast the publisher
/// got under a cap, and how long the subscriber's picture froze once it had.
extension ScenarioTimeline {
    /// What `--report` and the `report` event show.
    public var metrics: ScenarioMetrics {
        var metrics = countedMetrics
        metrics.capConvergence = capConvergence
        metrics.frozenAfterConverging = frozenWindows.isEmpty ? nil : frozenWindows.reduce(Duration.zero) { $0 + frozen(during: $1) }
        metrics.longestGapAfterConverging = frozenWindows.map { longestGap(from: $0.start, until: $0.startMilliseconds + $0.length.wholeMilliseconds) }.max()
        return metrics
    }

    /// `expect subscriber frozen below D for W`: the subscriber's `frozenMs` has grown by less than D since
    /// the reading the line started from, and a newer `stats` event proves the subscriber is still counting.
    func frozenVerdict(below limit: Duration, since: ScenarioExpectation.SubscriberReading?) -> ScenarioVerdict {
        guard let latest = frozenSeries.last else {
            return .unmet(seen: "no subscriber picture with a readable frame marker yet")
        }
        let baseline = since?.frozenMilliseconds ?? 0
        let now = Int64(latest.value)
        // A meter that started again (it never should) counts from zero rather than hiding a freeze.
        let grown = Duration.milliseconds(now >= baseline ? now - baseline : now)
        if grown >= limit {
            return .broken(seen: "the subscriber's picture froze \(grown.secondsText) in all since the line started (frozenMs \(baseline) → \(now))")
        }
        guard subscriberStatsSeen > (since?.statsSeen ?? 0) else {
            return .unmet(seen: "no subscriber stats since the line started")
        }
        return .met
    }

    /// `expect subscriber gap below D for W`: no stretch without video as long as D since the line started.
    func gapVerdict(below limit: Duration, since: ScenarioExpectation.SubscriberReading?) -> ScenarioVerdict {
        let start = since ?? ScenarioExpectation.SubscriberReading(frozenMilliseconds: 0, statsSeen: 0)
        let gap = longestGap(from: start, until: .max)
        if gap >= limit {
            return .broken(seen: "the subscriber went \(gap.secondsText) without video since the line started")
        }
        guard subscriberStatsSeen > start.statsSeen, gapSeries.contains(where: { $0.milliseconds > start.milliseconds }) else {
            return .unmet(seen: "no subscriber stats since the line started")
        }
        return .met
    }

    /// `expect subscriber fps above N for W`: every subscriber `stats` event since the line started decoded
    /// more than N frames in its second, and there has been one.
    func framesPerSecondVerdict(above limit: Double, since: ScenarioExpectation.SubscriberReading?) -> ScenarioVerdict {
        let inside = framesPerSecondSeries.filter { $0.milliseconds > (since?.milliseconds ?? 0) }
        if let low = inside.first(where: { $0.value <= limit }) {
            let rate = (low.value * 10).rounded() / 10
            return .broken(seen: "the subscriber decoded \(rate) fps at \(Duration.milliseconds(low.milliseconds).secondsText)")
        }
        return inside.isEmpty ? .unmet(seen: "no subscriber stats since the line started") : .met
    }

    /// The longest stretch without video the subscriber's `stats` showed after `start` and up to `end`: the
    /// open gap of each event, and the session's longest once it grew past what it was at the start (a gap
    /// between two events is seen to within the second between them).
    private func longestGap(from start: ScenarioExpectation.SubscriberReading, until end: Int64) -> Duration {
        let window = { (sample: Sample) in sample.milliseconds > start.milliseconds && sample.milliseconds <= end }
        let open = gapSeries.filter(window).map(\.value).max() ?? 0
        let longest = longestGapSeries.filter(window).map(\.value).max() ?? 0
        let grown = longest > Double(start.longestGapMilliseconds) ? longest : 0
        return .milliseconds(Int64(max(open, grown)))
    }

    /// The frozen time the subscriber measured during `window`.
    private func frozen(during window: FrozenWindow) -> Duration {
        let end = window.startMilliseconds + window.length.wholeMilliseconds
        guard let last = frozenSeries.last(where: { $0.milliseconds <= end }) else { return .zero }
        let grown = Int64(last.value) - window.start.frozenMilliseconds
        return .milliseconds(max(0, grown))
    }

    /// Each press that capped the link, and when the publisher's sent rate got under it for good (until the
    /// next press), from the publisher's `stats` (`bitrate`: what its socket took).
    private var capConvergence: [ScenarioMetrics.CapConvergence] {
        presses.indices.compactMap { index -> ScenarioMetrics.CapConvergence? in
            let press = presses[index]
            guard let cap = Self.cap(of: press.command) else { return nil }
            let end = index + 1 < presses.count ? presses[index + 1].milliseconds : Int64.max
            let samples = sentRateSeries.filter { $0.milliseconds > press.milliseconds && $0.milliseconds <= end }
            guard !samples.isEmpty else { return nil }
            let limit = Double(cap) * ScenarioMetrics.CapConvergence.share
            let lastAbove = samples.lastIndex { $0.value > limit }
            var settled: Sample? = if let lastAbove { samples.indices.contains(lastAbove + 1) ? samples[lastAbove + 1] : nil } else { samples.first }
            if let first = settled, let last = samples.last,
                .milliseconds(last.milliseconds - first.milliseconds) < ScenarioMetrics.CapConvergence.stay {
                settled = nil
            }
            return ScenarioMetrics.CapConvergence(
                capBitsPerSecond: cap, duration: settled.map { .milliseconds($0.milliseconds - press.milliseconds) })
        }
    }

    /// The cap a press puts on the publisher's link: `link-cap RATE` or `handoff RATE [MS]`.
    static func cap(of command: OperatorCommand) -> Int? {
        switch command {
        case .link(.cap(let bitsPerSecond)): bitsPerSecond
        case .link(.handoff(let cap?, _)): cap
        default: nil
        }
    }
}
