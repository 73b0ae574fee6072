import OnAirCore

/// `--abr` and `--link-cap`/`--link-delay` of `onair publish` and `onair demo`: adaptive bitrate, and the
/// link impairment stage the publisher connects through.
public struct NetworkOptions: Sendable, Equatable {
    public var abr: AdaptiveBitrateConfiguration.Mode
    /// `--abr-require-video`: at the floor, keep video at the reduced frame rate instead of going audio-only.
    public var abrRequireVideo: Bool
    /// `--link-cap RATE`: the link's cap each way from the start (bit/s).
    public var linkCap: Int?
    /// `--link-delay MS`: added each way from the start.
    public var linkDelay: Duration?
    /// `--direct`: never put the link stage on the path (the default for `publish` unless `--link-*` asks
    /// for an impairment; the demo's publisher then connects straight too, and its link keys are refused).
    public var direct: Bool

    public init(
        abr: AdaptiveBitrateConfiguration.Mode = .off, abrRequireVideo: Bool = false, linkCap: Int? = nil, linkDelay: Duration? = nil,
        direct: Bool = false
    ) {
        self.abr = abr
        self.abrRequireVideo = abrRequireVideo
        self.linkCap = linkCap
        self.linkDelay = linkDelay
        self.direct = direct
    }

    /// True when an impairment is asked for from the start: only the stage (rtmp:// only) makes one. ABR
    /// needs no stage: it reads the kernel's counters on the publisher's own connection.
    var asksForLinkStage: Bool { linkCap != nil || linkDelay != nil }

    /// The stage's state at the start.
    var initialLinkState: LinkImpairmentState {
        LinkImpairmentState(capBitsPerSecond: linkCap, delay: linkDelay ?? .zero)
    }
}
