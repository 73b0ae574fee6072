/// What the publisher's state machines ask their owner to do — one vocabulary for every policy, named
/// after the Red5 Pro calls in the seeds (`pauseVideo`, `send`, `stop`, `publish:type:`, `showPreview:`).
///
/// The policies decide in the seeds' words, display calls included (`toast`, `showPreview:`, the tap
/// recognizer). `requiresOwner` tells the calls the owner performs (engine, network, timers) from those
/// that only change what the dashboard shows: `PublisherSession` applies those to its `state` and
/// returns only the owner's, so a display call never travels to the controller.
public enum PublisherAction: Sendable, Equatable {
    /// Red5 `publishStream.pauseVideo`: stop sending video frames (true) or send them again (false).
    /// An engine-level flag: it survives a new connection until changed.
    case pauseVideo(Bool)
    /// Red5 `publishStream.pauseAudio`: send silence (true) or the microphone again (false).
    case pauseAudio(Bool)
    /// Red5 `send(_:withParam:)`: an AMF0 data message on the live stream (docs/design.md §3).
    case send(handler: String, parameter: String)
    /// Open a NEW connection and publish `name` with `type` (Red5 `R5Connection` + `publish:type:`).
    case publish(name: String, type: PublishType)
    /// Stop publishing and close the connection in order (unpublish, then close).
    case stop
    /// Show (true) or hide (false) the local camera preview while not publishing (`showPreview:`).
    case preview(Bool)
    /// A transient notice on the publisher pane (`ALToastView.toast`).
    case toast(String)
    /// The next tap re-publishes (the seed adds a `UITapGestureRecognizer`).
    case armTap
    /// The tap no longer re-publishes (the seed removes the recognizer).
    case disarmTap
    /// Ask the video encoder for a keyframe now, so a new or resumed stream can be decoded at once.
    case requestKeyframe
    /// Close the socket abruptly, without unpublishing: what a server does to an app suspended too long
    /// (vonage-ios-background-state.txt, "Losing Control"). Subscribers see the publisher go away.
    case dropConnection
    /// Close a connection whose socket stopped accepting bytes, without waiting to unpublish (nothing
    /// would get through); the reconnect policy takes over.
    case abandonConnection
    /// Start (or restart) the timer `id`; answer with `PublisherEvent.timerFired(id)` after `after`.
    case scheduleTimer(PublisherTimer, after: Duration)
    /// Cancel the timer `id` if it is running.
    case cancelTimer(PublisherTimer)

    /// True when the owner must do something (engine, network, timers); false for display-only actions,
    /// which the screen reads from `PublisherAppState` and `PublisherSession.previewOn`.
    public var requiresOwner: Bool {
        switch self {
        case .preview, .toast, .armTap, .disarmTap: false
        default: true
        }
    }
}

extension PublisherAction: CustomStringConvertible {
    /// The event-log text of the action.
    public var description: String {
        switch self {
        case .pauseVideo(let paused): "pauseVideo = \(paused)"
        case .pauseAudio(let paused): "pauseAudio = \(paused)"
        case .send(let handler, let parameter): "send \(handler)(\(parameter))"
        case .publish(let name, let type): "publish \(name) type \(type.rawValue) on a new connection"
        case .stop: "stop"
        case .preview(let on): on ? "preview on" : "preview off"
        case .toast(let text): "toast \"\(text)\""
        case .armTap: "arm tap"
        case .disarmTap: "disarm tap"
        case .requestKeyframe: "request keyframe"
        case .dropConnection: "drop connection"
        case .abandonConnection: "abandon the stalled connection"
        case .scheduleTimer(let id, let after): "schedule \(id.rawValue) timer in \(after.wholeMilliseconds) ms"
        case .cancelTimer(let id): "cancel \(id.rawValue) timer"
        }
    }
}
