/// Everything that can happen to a subscriber, stamped by the owner and fed to `SubscriberSession.handle`.
public enum SubscriberEvent: Sendable, Equatable {
    /// A key standing for something done to the subscriber's own phone (call, Home, …).
    case `operator`(OperatorAction)
    /// Start playing, or stop.
    case control(SubscriberControl)
    /// A data message relayed from the publisher's `send()` (DESIGN.md §3): dispatched on the handler name.
    case message(handler: String, parameter: String)
    /// An `onStatus` code from the server.
    case status(PlayStatus)
    /// Media arrived after a gap (the first packet after a stall, an unpublish or a new play).
    case mediaResumed
    /// The owner's watchdog: no media for the stall timeout while the socket stays open. Stock servers
    /// send nothing when a publisher stalls (interop NOTES: nginx-rtmp), so this stands in for UnpublishNotify.
    case mediaStalled
    /// The play could not be started (connection refused, …).
    case playFailed(reason: String)
    /// The subscriber's own connection closed without being asked to.
    case connectionLost(reason: String)
    /// A timer the session scheduled has run out.
    case timerFired(SubscriberTimer)
}

/// The subscriber's console controls.
public enum SubscriberControl: String, Sendable, Equatable, CaseIterable, Codable {
    case play
    case stop
}

/// The `NetStream.Play.*` status codes a player acts on (DESIGN.md §3).
public enum PlayStatus: String, Sendable, Equatable, CaseIterable, Codable {
    case start = "NetStream.Play.Start"
    case reset = "NetStream.Play.Reset"
    case stop = "NetStream.Play.Stop"
    case publishNotify = "NetStream.Play.PublishNotify"
    case unpublishNotify = "NetStream.Play.UnpublishNotify"
    case streamNotFound = "NetStream.Play.StreamNotFound"
}

/// The timers the subscriber asks its owner to run.
public enum SubscriberTimer: String, Sendable, Equatable, Hashable, CaseIterable, Codable {
    /// The wait before stopping and playing again (`--reconnect-delay`, 2 s in the seed).
    case reconnect
}

/// What the subscriber asks its owner to do.
public enum SubscriberAction: Sendable, Equatable {
    /// Open a new connection and play `name`.
    case play(name: String)
    /// Stop playing and close the connection (the seed: `view.attach(nil)`, `delegate = nil`, `stop()`).
    case stop
    /// R5VideoViewController `pauseRender`: stop decoding video (`deactivate_display`); audio and the
    /// connection go on (red5pro-subscribe-background.md).
    case pauseRender
    /// `resumeRender`: decode again (`activate_display`), from the next keyframe.
    case resumeRender
    /// A transient notice on the subscriber pane (`ALToastView.toast`).
    case toast(String)
    case scheduleTimer(SubscriberTimer, after: Duration)
    case cancelTimer(SubscriberTimer)

    /// True when the owner must do something; false for display-only actions.
    public var requiresOwner: Bool {
        if case .toast = self { return false }
        return true
    }
}

extension SubscriberAction: CustomStringConvertible {
    public var description: String {
        switch self {
        case .play(let name): "play \(name) on a new connection"
        case .stop: "stop"
        case .pauseRender: "pauseRender"
        case .resumeRender: "resumeRender"
        case .toast(let text): "toast \"\(text)\""
        case .scheduleTimer(let id, let after): "schedule \(id.rawValue) timer in \(after.wholeMilliseconds) ms"
        case .cancelTimer(let id): "cancel \(id.rawValue) timer"
        }
    }
}
