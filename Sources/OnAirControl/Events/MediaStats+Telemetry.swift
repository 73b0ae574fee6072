import OnAirCore
import OnAirMedia

extension MediaStats {
    /// The `stats` event details of a publisher (README, "Headless output").
    ///
    /// `congestion` is the same 0…1 level the dashboard shows, so a script watching a slow link sees what
    /// the operator sees; `droppedVideoPackets`/`droppedAudioPackets` are the output queue's drops alone
    /// (the network being slower than the encoder) and `congestionEvents` counts its overflows, each of
    /// which dropped the queued video and waited for the next keyframe. `dropped` stays the total of every cause.
    public var headlessDetails: [String: JSONValue] {
        var details: [String: JSONValue] = [
            "bitrate": .integer(Int64(bitrate1s)),
            "videoBitrate": .integer(Int64(videoBitrate1s)),
            "audioBitrate": .integer(Int64(audioBitrate1s)),
            "fps": .number((encodedFramesPerSecond * 10).rounded() / 10),
            "framesEncoded": .integer(Int64(framesEncoded)),
            "keyframes": .integer(Int64(keyframesEncoded)),
            "dropped": .integer(Int64(drops.total)),
            "droppedVideoPackets": .integer(Int64(drops.congestionVideoPackets)),
            "droppedAudioPackets": .integer(Int64(drops.congestionAudioPackets)),
            "congestionEvents": .integer(Int64(output?.congestionEvents ?? 0)),
            "congestion": .number((congestion * 100).rounded() / 100),
            "encodeMs": .number((encodeMillisecondsPerFrame * 100).rounded() / 100),
            "queueDepth": .integer(Int64(output?.depth ?? 0)),
            "pauseVideo": .bool(videoPaused),
            "pauseAudio": .bool(audioPaused),
            "framesFilled": .integer(Int64(framesFilled)),
        ]
        if let p50 = latencyP50Milliseconds { details["latencyP50Ms"] = .number((p50 * 10).rounded() / 10) }
        if let p99 = latencyP99Milliseconds { details["latencyP99Ms"] = .number((p99 * 10).rounded() / 10) }
        // Audio apart: it may wait up to --audio-merge-ms for a video frame to leave with.
        if let p50 = output?.audioLatencyP50 { details["audioLatencyP50Ms"] = .number((p50 * 10).rounded() / 10) }
        if let p99 = output?.audioLatencyP99 { details["audioLatencyP99Ms"] = .number((p99 * 10).rounded() / 10) }
        return details
    }

    /// How full the output queue is, 0…1: the dashboard's congestion level.
    public var congestion: Double {
        guard let output, output.capacity > 0 else { return 0 }
        let byDepth = Double(output.depth) / Double(output.capacity)
        let byBytes = output.byteCapacity > 0 ? Double(output.bytes) / Double(output.byteCapacity) : 0
        return min(1, max(byDepth, byBytes))
    }
}
