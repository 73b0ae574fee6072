/// What the subscriber asks its owner to do: I/O and timers only. What the screen shows (the toasts, the
/// publisher's flags) is in `SubscriberSession.state`.
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
    case scheduleTimer(SubscriberTimer, after: Duration)
    case cancelTimer(SubscriberTimer)
}

extension SubscriberAction: CustomStringConvertible {
    public var description: String {
        switch self {
        case .play(let name): "play \(name) on a new connection"
        case .stop: "stop"
        case .pauseRender: "pauseRender"
        case .resumeRender: "resumeRender"
        case .scheduleTimer(let id, let after): "schedule \(id.rawValue) timer in \(after.wholeMilliseconds) ms"
        case .cancelTimer(let id): "cancel \(id.rawValue) timer"
        }
    }
}
