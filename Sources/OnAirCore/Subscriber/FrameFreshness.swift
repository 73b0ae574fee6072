/// Whether a video frame that arrived is live media or a replay of frames already past: the rule the
/// subscriber's state reads (docs/demo-truth.md, "Subscriber states").
///
/// Why not "a packet arrived": a relay answers a new play with its cached GOP (nginx-rtmp's `live` module,
/// Wowza, Red5, `onair serve`), so while the publisher's link is down a re-play still brings seconds of old
/// frames — and the picture would go backwards under a PLAYING badge. A frame is replayed when it is not
/// newer than the newest frame already taken as live: by its capture instant when the picture carries a
/// frame marker (the test pattern), else by its stream timestamp. Timestamps restart with a new publish, so
/// the owner calls `newPublishSession()` on PublishNotify and UnpublishNotify; capture instants never do.
public struct FrameFreshness: Sendable, Equatable {
    public enum Verdict: Sendable, Equatable {
        case live
        case replayed
    }

    /// The newest live frame's timestamp (ms) in this publish session.
    public private(set) var newestTimestamp: Int64?
    /// The newest live frame's capture instant (wall µs), from its marker; kept across publish sessions.
    public private(set) var newestCapture: UInt64?

    public init() {}

    /// A step back in timestamps longer than this is a new source that restarted its clock (a publisher that
    /// republished without PublishNotify, as through stock nginx-rtmp), not a replay: a relay's cache holds
    /// one GOP, seconds long.
    public static let newSourceStepBackMilliseconds: Int64 = 10_000

    /// Judges one frame by its stream timestamp (decode order, so B-frames never step back).
    public mutating func judge(timestamp: Int64) -> Verdict {
        if let newest = newestTimestamp, timestamp <= newest, newest - timestamp <= Self.newSourceStepBackMilliseconds {
            return .replayed
        }
        newestTimestamp = timestamp
        return .live
    }

    /// Judges one decoded picture by the capture instant its marker carries.
    public mutating func judge(captureMicroseconds capture: UInt64) -> Verdict {
        if let newest = newestCapture, capture <= newest { return .replayed }
        newestCapture = capture
        return .live
    }

    /// A new publish began (or the last one ended): its timestamps start afresh.
    public mutating func newPublishSession() {
        newestTimestamp = nil
    }
}
