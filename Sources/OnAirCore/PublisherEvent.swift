/// Everything that can happen to a publisher, stamped by the owner and fed to `PublisherSession.handle`.
public enum PublisherEvent: Sendable, Equatable {
    /// A key standing for something done to the phone (call, decline, Home, tap, …).
    case `operator`(OperatorAction)
    /// A console control that is not a phone gesture (toggles, stop, start, next policy).
    case control(PublisherControl)
    /// What the network reported.
    case network(PublisherNetworkEvent)
    /// A timer the session scheduled with `PublisherAction.scheduleTimer` has run out.
    case timerFired(PublisherTimer)
}

/// The operator's console controls (DESIGN.md §1.2: "switchable at run time").
public enum PublisherControl: Sendable, Equatable {
    /// Flip `pauseVideo`.
    case togglePauseVideo
    /// Flip `pauseAudio`.
    case togglePauseAudio
    /// End the broadcast; cancels any pending reconnect.
    case stop
    /// Start broadcasting now (as `onair demo` / `onair publish` do at launch); nil uses the policy's
    /// type for a new broadcast (`PublisherPolicyKind.newBroadcastType`).
    case start(PublishType?)
    /// Switch to the next interrupt policy, keeping whatever is live.
    case nextPolicy
}

/// What the publisher's connection reported to its owner.
public enum PublisherNetworkEvent: Sendable, Equatable {
    /// `NetStream.Publish.Start`: the server accepted the publish.
    case publishStarted
    /// The publish was refused or the connection could not be made; `reason` is the server's code or the
    /// socket error (e.g. `NetStream.Publish.BadName`).
    case publishFailed(reason: String)
    /// The connection closed without being asked to (reset, timeout, server gone).
    case connectionLost(reason: String)
}

extension PublisherNetworkEvent: CustomStringConvertible {
    public var description: String {
        switch self {
        case .publishStarted: "NetStream.Publish.Start"
        case .publishFailed(let reason): "publish failed: \(reason)"
        case .connectionLost(let reason): "connection lost: \(reason)"
        }
    }
}
