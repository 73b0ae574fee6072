import OnAirCore

/// Adaptive bitrate's handle on the engine: a new rate for the video encoder, applied between two frames.
extension MediaEngine {
    /// Applies adaptive bitrate's target: its bitrate and frame rate, or no video at all for audio-only
    /// (the audio track goes on; video resumes with a keyframe).
    public func apply(_ target: AdaptiveBitrateTarget) {
        setVideoRate(VideoRate(bitrate: target.videoBitrate, framesPerSecond: target.audioOnly ? 0 : target.framesPerSecond))
    }

    /// Asks the encode thread to switch to `rate` before its next picture; the latest call wins. The encoder
    /// stays open (same SPS/PPS, no keyframe): see `VideoEncoder.reconfigure`. A bitrate above the
    /// configuration's is clamped to it: the operator's bitrate is the ceiling.
    public func setVideoRate(_ rate: VideoRate) {
        var clamped = rate
        clamped.bitrate = min(max(1000, rate.bitrate), configuration.videoBitrate)
        clamped.framesPerSecond = min(max(0, rate.framesPerSecond), configuration.framesPerSecond)
        control.pendingVideoRate.withLock { $0 = clamped }
    }

    /// The rate the encoder works to now: the configuration's until a change has been applied.
    public var videoRate: VideoRate {
        control.appliedVideoRate.withLock { $0 }
            ?? VideoRate(bitrate: configuration.videoBitrate, framesPerSecond: configuration.framesPerSecond)
    }
}
