/// How long a subscriber went without video: the gap since the last frame, and the longest so far.
///
/// The figure the policies are compared by (`onair demo --report`): `tap-republish` pauses video while the
/// phone rings, `resume-append` stops and republishes, `background-audio` keeps audio only. Gaps are
/// counted from the first frame on, so the wait for the stream to start is not one.
public struct VideoGapMeter: Sendable, Equatable {
    public private(set) var lastFrame: SessionTime?
    public private(set) var longest: Duration = .zero

    public init() {}

    public mutating func frameArrived(at time: SessionTime) {
        if let lastFrame { longest = max(longest, time.since(lastFrame)) }
        lastFrame = time
    }

    /// The gap still open at `time` (zero before the first frame).
    public func currentGap(at time: SessionTime) -> Duration {
        lastFrame.map { time.since($0) } ?? .zero
    }

    /// The longest gap including the one still open at `time`.
    public func longestGap(at time: SessionTime) -> Duration {
        max(longest, currentGap(at: time))
    }
}
