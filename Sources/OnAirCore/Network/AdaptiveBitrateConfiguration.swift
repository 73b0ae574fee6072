/// The knobs of `AdaptiveBitrate`: the mode, the operator's ceiling and floor, and each mode's timing.
///
/// Defaults follow the anchors: Red5 Pro's `R5AdaptiveBitrateController` steps the configured bitrate down
/// while the send buffer grows and back up after a quiet spell; OBS's dynamic bitrate and HaishinKit drop to
/// what the link carried once the queue passes a threshold and climb back a fraction at a time. The ceiling
/// is the operator's bitrate and is never exceeded (OBS #12235).
public struct AdaptiveBitrateConfiguration: Sendable, Equatable {
    /// `--abr off|ladder|throughput`.
    public enum Mode: String, Sendable, Equatable, CaseIterable {
        /// The encoder keeps the operator's bitrate; congestion only drops packets (the behaviour before ABR).
        case off
        /// Red5 Pro: fixed steps of the configured bitrate.
        case ladder
        /// OBS dynamic bitrate / HaishinKit: down to the measured throughput, back up by a fraction.
        case throughput
    }

    public var mode: Mode
    /// The operator's bitrate (bit/s): the start and the most the machine ever asks for.
    public var ceiling: Int
    /// Below this video bitrate (bit/s) the picture is not worth its bits: the frame rate drops instead.
    public var floor: Int
    /// The audio track's bitrate (bit/s): throughput is measured on the whole stream, so the video's share
    /// of it is what is left after audio.
    public var audioBitrate: Int
    /// The operator's frame rate, and the reduced one used at the floor.
    public var framesPerSecond: Double
    public var reducedFramesPerSecond: Double
    /// `--abr-require-video`: at the floor with the reduced frame rate, stay there instead of audio-only.
    public var requireVideo: Bool
    /// Congestion: the send queue holds more than this much media.
    public var queueDelayThreshold: Duration
    /// After a change, the queue needs time to drain: no second step down within this time.
    public var settleTime: Duration
    /// Ladder: the rungs as fractions of the ceiling, top first.
    public var ladder: [Double]
    /// Ladder: one rung up after this long without congestion.
    public var quietInterval: Duration
    /// Throughput: the share of the measured throughput aimed at: headroom for the encoder's overshoot within
    /// a second and for the headers the link also carries. 80 %: at 85 % the sent rate through an 800 kbit/s
    /// cap, counted on the wire, rose past 90 % of it in some seconds (make bench, abr).
    public var throughputHeadroom: Double
    /// Throughput: a probe past the link's known capacity asks for this many times the current stream
    /// (audio and video); enough that a lifted cap is found in a few steps, and that a cap still in place
    /// shows as a standing queue within a second or two.
    public var probeGrowth: Double
    /// Throughput: a standing queue this long while a probe is out fails it (well before the congestion
    /// threshold: the probe is taken back before the link's buffers fill).
    public var probeQueueLimit: Duration
    /// Throughput: each recovery step adds this fraction of the ceiling…
    public var recoveryFraction: Double
    /// …every this long without congestion.
    public var recoveryInterval: Duration
    /// Throughput: a path whose queues held no packet longer than this (the kernel's smoothed round trip
    /// above its least) for `quietPathSpan`, keyframes and all, has room far past the stream — a cap was
    /// lifted: the next probe goes at once (no backoff) and grows by `probeGrowth` squared, and a probe out
    /// is held. 3 s: under an 800k tbf cap a small picture's keyframes at ~430k fit the bucket's burst, and
    /// 2 s of quiet happened once a minute there (make bench, abr). Under a cap a
    /// keyframe's burst queues tens of milliseconds at the bottleneck every GOP (a 16 KB keyframe through an
    /// 800 kbit/s tbf: 43 ms), so a capped path never looks quiet this long.
    public var quietPathQueueing: Duration
    public var quietPathSpan: Duration
    /// Throughput: within this long of a failed probe the path's quiet starts no early probe — with bursts
    /// (`burstHold`), only a burst that drained does; without them, once a quiet-started probe has failed
    /// (until a probe holds) only the backed-off wait does. Keyframes that fit the bottleneck's
    /// burst allowance (the test clip at ~430k under an 800k tbf) can read quiet under a cap, and one run made
    /// two failed probes within 20 s that way.
    public var failedProbeSpacing: Duration
    /// Throughput: how long the owner holds the media back to send it as one burst while the backoff after
    /// a failed probe holds the next back (`AdaptiveBitrate+Burst`); nil: the owner cannot hold its sends (a
    /// burst would never happen and every verdict would read quiet), so no burst is asked for. 300 ms: past
    /// an 8 kB token bucket's allowance from about 220 kbit/s of stream, and within a player's usual buffer.
    public var burstHold: Duration?
    /// The longest hold: a probe started by a burst that then failed doubles the next hold up to this.
    public var burstHoldLimit = Duration.milliseconds(1200)
    /// At most one burst this often: the hold adds its latency to the stream each time.
    public var burstInterval = Duration.seconds(5)
    /// A burst passed when the path's queueing read less than this in the second that carried it: under an
    /// 800 kbit/s tbf a 300 ms burst of 640 kbit/s raises the smoothed round trip by tens of milliseconds;
    /// on a 20 Mbit/s path the same burst queues under 10 ms at its peak.
    public var burstQueueing = Duration.milliseconds(20)

    public init(
        mode: Mode = .off,
        ceiling: Int,
        floor: Int? = nil,
        audioBitrate: Int = 0,
        framesPerSecond: Double = 30,
        reducedFramesPerSecond: Double? = nil,
        requireVideo: Bool = false,
        queueDelayThreshold: Duration = .milliseconds(500),
        settleTime: Duration = .seconds(2),
        ladder: [Double] = [1.0, 0.75, 0.5, 0.35, 0.25],
        quietInterval: Duration = .seconds(10),
        throughputHeadroom: Double = 0.8,
        probeGrowth: Double = 1.5,
        probeQueueLimit: Duration = .milliseconds(150),
        recoveryFraction: Double = 0.1,
        recoveryInterval: Duration = .seconds(3),
        quietPathQueueing: Duration = .milliseconds(2),
        quietPathSpan: Duration = .seconds(3),
        failedProbeSpacing: Duration = .seconds(20),
        burstHold: Duration? = nil
    ) {
        self.mode = mode
        self.ceiling = max(1, ceiling)
        self.floor = min(self.ceiling, max(1, floor ?? self.ceiling / 8))
        self.audioBitrate = max(0, audioBitrate)
        self.framesPerSecond = framesPerSecond
        self.reducedFramesPerSecond = reducedFramesPerSecond ?? max(1, (framesPerSecond / 2).rounded(.down))
        self.requireVideo = requireVideo
        self.queueDelayThreshold = queueDelayThreshold
        self.settleTime = settleTime
        let rungs = ladder.filter { $0 > 0 && $0 <= 1 }.sorted(by: >)
        self.ladder = rungs.first == 1 ? rungs : [1] + rungs
        self.quietInterval = quietInterval
        self.throughputHeadroom = min(1, max(0.1, throughputHeadroom))
        self.probeGrowth = min(4, max(1.05, probeGrowth))
        self.probeQueueLimit = probeQueueLimit
        self.recoveryFraction = min(1, max(0.01, recoveryFraction))
        self.recoveryInterval = recoveryInterval
        self.quietPathQueueing = quietPathQueueing
        self.quietPathSpan = quietPathSpan
        self.failedProbeSpacing = failedProbeSpacing
        self.burstHold = burstHold.map { min(burstHoldLimit, max(.milliseconds(50), $0)) }
    }
}
