/// The operator's console controls (docs/design.md §1.2: "switchable at run time").
public enum PublisherControl: Sendable, Hashable {
    /// Flip `pauseVideo`.
    case togglePauseVideo
    /// Flip `pauseAudio`.
    case togglePauseAudio
    /// End the broadcast; cancels any pending reconnect.
    case stop
    /// Start broadcasting now (as `onair demo` / `onair publish` do at launch); nil uses the policy's
    /// type for a new broadcast (`PublisherPolicyKind.newBroadcastType`). While a broadcast is under way
    /// (connecting, live, stalled, reconnecting) it reconnects now: the connection is dropped and
    /// connect + publish redone at once with the backoff reset (`r`).
    case start(PublishType?)
    /// Switch to the next interrupt policy, keeping whatever is live.
    case nextPolicy
}

extension PublisherControl: CustomStringConvertible {
    public var description: String {
        switch self {
        case .togglePauseVideo: "toggle pauseVideo"
        case .togglePauseAudio: "toggle pauseAudio"
        case .stop: "stop"
        case .start(let type): type.map { "start \($0.rawValue)" } ?? "start"
        case .nextPolicy: "next policy"
        }
    }
}
