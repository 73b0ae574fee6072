extension MediaEngine {
    /// The drop counters alone, by cause: what `stats.drops` holds, without `stats`' latency sorting
    /// under the lock the encoders and the sender share — cheap enough to read on every tick.
    public var drops: MediaStats.Drops {
        var drops = MediaStats.Drops()
        let counters = control.counters.withLock { $0 }
        drops.sourceLate = counters.sourceLate
        drops.encoderBusy = handoff.dropped
        let output = queue.droppedPackets
        drops.congestionVideoPackets = output.video
        drops.congestionAudioPackets = output.audio
        drops.audioOverruns = counters.audioOverruns
        return drops
    }
}
