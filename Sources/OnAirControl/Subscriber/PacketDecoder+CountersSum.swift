import OnAirMedia

/// Counters of the decoders a subscriber has had (one per play), summed for its totals.
extension PacketDecoder.Counters {
    public func adding(_ other: PacketDecoder.Counters) -> PacketDecoder.Counters {
        var sum = self
        sum.videoPacketsReceived += other.videoPacketsReceived
        sum.videoFramesDecoded += other.videoFramesDecoded
        sum.videoSkippedWhilePaused += other.videoSkippedWhilePaused
        sum.videoSkippedAwaitingKeyframe += other.videoSkippedAwaitingKeyframe
        sum.audioFramesDecoded += other.audioFramesDecoded
        return sum
    }
}
