/// What the encoder is asked to produce: the video bitrate, the frame rate, or no video at all.
public struct AdaptiveBitrateTarget: Sendable, Equatable, CustomStringConvertible {
    /// bit/s; kept while audio-only so that video resumes where it stopped.
    public var videoBitrate: Int
    public var framesPerSecond: Double
    public var audioOnly: Bool

    public init(videoBitrate: Int, framesPerSecond: Double, audioOnly: Bool = false) {
        self.videoBitrate = videoBitrate
        self.framesPerSecond = framesPerSecond
        self.audioOnly = audioOnly
    }

    public var description: String {
        audioOnly ? "audio-only" : "\(videoBitrate / 1000)k@\(framesPerSecond.formatted1)fps"
    }
}

/// One decision of `AdaptiveBitrate`: from where to where, and why (the `abr` event carries all three).
public struct AdaptiveBitrateChange: Sendable, Equatable {
    public enum Reason: Sendable, Equatable {
        /// The send queue held more media than the threshold (milliseconds).
        case queueDelay(milliseconds: Int64)
        /// The queue dropped packets since the last sample.
        case drops(count: Int)
        /// Throughput: a probe's encoders offered more than the link carried, and it carried no more than
        /// it was known to take (bit/s offered and carried).
        case linkFull(offered: Int, carried: Int)
        /// Ladder: a quiet interval passed with no congestion.
        case quietInterval
        /// Throughput: a recovery interval passed with no congestion.
        case recovery

        /// The word the `abr` event uses.
        public var name: String {
            switch self {
            case .queueDelay: "queue-delay"
            case .drops: "drops"
            case .linkFull: "link-full"
            case .quietInterval: "quiet-interval"
            case .recovery: "recovery"
            }
        }
    }

    public var old: AdaptiveBitrateTarget
    public var new: AdaptiveBitrateTarget
    public var reason: Reason

    public init(old: AdaptiveBitrateTarget, new: AdaptiveBitrateTarget, reason: Reason) {
        self.old = old
        self.new = new
        self.reason = reason
    }
}

extension Double {
    /// One decimal unless whole: 30, 15, 7.5.
    var formatted1: String {
        self == rounded() ? String(Int(self)) : String((self * 10).rounded() / 10)
    }
}
