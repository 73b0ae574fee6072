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
    /// `--direct`: connect straight to the server, with no link stage on the path (link keys and `--abr`
    /// are then refused with the reason). For a production broadcast that wants no extra hop.
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

    /// True when the options only make sense through the stage (rtmp:// only). ABR measures its
    /// throughput where the bytes leave the stage, so it needs one too.
    var asksForLinkStage: Bool { abr != .off || linkCap != nil || linkDelay != nil }

    /// The stage's state at the start.
    var initialLinkState: LinkImpairmentState {
        LinkImpairmentState(capBitsPerSecond: linkCap, delay: linkDelay ?? .zero)
    }
}
