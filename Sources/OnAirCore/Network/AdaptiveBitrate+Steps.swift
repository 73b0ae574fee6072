/// The steps `AdaptiveBitrate` takes: one down, one up, the ladder's rungs.
extension AdaptiveBitrate {
    /// One step down from the current target.
    func lower(measured: Int) -> AdaptiveBitrateTarget {
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

    /// One step up from the current target, never past the ceiling; `boosted` (a quiet path, a burst that
    /// drained without queueing) probes by `probeGrowth` squared at once, below the known capacity or not.
    func higher(boosted: Bool = false) -> AdaptiveBitrateTarget {
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
            // Boosted (the link has shown room far past the stream), no climb to the old capacity first.
            if !boosted, let safe = safeVideoBitrate, Double(target.videoBitrate) * (1 + Self.smallestClimb) < Double(safe) {
                // Below the known capacity's headroom: climb there, a step at a time.
                next.videoBitrate = min(safe, Self.wholeKilobits(Double(target.videoBitrate) + step))
            } else {
                // A probe: the whole stream times `probeGrowth`, at least one step.
                let stream = Double(target.videoBitrate + configuration.audioBitrate)
                let growth = boosted ? configuration.probeGrowth * configuration.probeGrowth : configuration.probeGrowth
                let grown = stream * growth - Double(configuration.audioBitrate)
                next.videoBitrate = Self.wholeKilobits(max(grown, Double(target.videoBitrate) + step))
            }
        }
        next.videoBitrate = min(configuration.ceiling, next.videoBitrate)
        return next
    }

    /// The ladder's bitrates, highest first, none below the floor.
    var rungs: [Int] {
        configuration.ladder.map { max(configuration.floor, Self.wholeKilobits(Double(configuration.ceiling) * $0)) }
    }

    /// x264 takes kbit/s: a target that is not a whole number of them would be rounded there anyway.
    static func wholeKilobits(_ bitsPerSecond: Double) -> Int {
        guard bitsPerSecond.isFinite, bitsPerSecond > 0 else { return 0 }
        let clamped = min(bitsPerSecond, Double(Int32.max))
        return Int(clamped / 1000) * 1000
    }
}
