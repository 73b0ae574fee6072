/// The subscriber as the front ends drive it: its own lifecycle simulator, the publisher's notices, and
/// the reconnect loop, kept in `SubscriberAppState`.
///
/// Seeds: SubscribeTelephonyInterruptTest (red5pro-publish-subscribe-telephony-interrupt.md) for the
/// notices and the loop, SubscribeBackgroundTest (red5pro-subscribe-background.md) for render pausing.
/// The owner feeds events stamped with its clock and performs the returned actions in order.
///
/// The connection's life is one enum with payloads (`SubscriberPhase`), assigned by `enter(_:at:timerRanOut:)`
/// alone, which also runs the reconnect timer; `state.connection` and `state.reconnectAttempts` are read
/// off it after every event (`refreshDerivedState()`), so each fact is kept once.
public struct SubscriberSession: Sendable, Equatable {
    public private(set) var state: SubscriberAppState
    public private(set) var simulator = LifecycleSimulator()
    /// Assigned by `enter(_:at:timerRanOut:)` only.
    public private(set) var phase = SubscriberPhase.idle
    /// How long to wait after losing the stream before playing again (the seed's `asyncAfter(.now() + 2.0)`).
    public let reconnectDelay: Duration

    /// The timers the owner is running for this session: the reconnect timer exactly while the loop waits.
    public var pendingTimers: Set<SubscriberTimer> { phase.isWaitingToReplay ? [.reconnect] : [] }

    public init(streamName: String, redactedURL: String, reconnectDelay: Duration = .seconds(2)) {
        state = SubscriberAppState(streamName: streamName, redactedURL: redactedURL)
        self.reconnectDelay = reconnectDelay
        refreshDerivedState()
    }

    /// Why a phone gesture would do nothing to this subscriber now, or nil when it is delivered: the one
    /// rule the console's footer and help overlay read (`state.refusals`) and `handle` applies.
    public func refusal(of action: OperatorAction) -> String? {
        if action == .tap { return "the subscriber has no tap action" }
        return simulator.refusal(of: action)
    }

    private var currentRefusals: [OperatorAction: String] {
        var refusals: [OperatorAction: String] = [:]
        for action in OperatorAction.allCases {
            if let reason = refusal(of: action) { refusals[action] = reason }
        }
        return refusals
    }

    public mutating func handle(_ event: SubscriberEvent, at now: SessionTime) -> [SubscriberAction] {
        defer { refreshDerivedState() }
        switch event {
        case .operator(let action): return operate(action, at: now)
        case .control(let control): return handleControl(control, at: now)
        case .message(let handler, let parameter): return message(handler, parameter, at: now)
        case .status(let status): return playStatus(status, at: now)
        case .mediaResumed:
            log(now, .engine, "media resumed")
            return mediaArrived(at: now)
        case .mediaReplayed:
            log(now, .engine, "replayed frames: captured before the newest shown, not live")
            return mediaReplayed(at: now)
        case .mediaStalled:
            log(now, .engine, "no media: stall watchdog")
            // Old frames that stop inside the loop: the loop goes on, its count kept.
            if case .replaying(_?) = phase { return scheduleReplay(at: now) }
            let stalled = phase == .playing || phase == .replaying(loopPlays: nil) ? enter(.stalled, at: now) : []
            return stalled + publisherGone(at: now)
        case .playFailed(let reason):
            log(now, .error, "play failed: \(reason)")
            return playFailed(reason, at: now)
        case .connectionLost(let reason):
            log(now, .error, "connection lost: \(reason)")
            switch phase {
            case .idle, .error: return []
            case .connecting, .playing, .replaying, .waitingForPublisher, .stalled, .reconnecting: return scheduleReplay(at: now)
            }
        case .timerFired(let timer):
            return timerFired(timer, at: now)
        case .linkChanged(let text):
            log(now, .engine, text)
            return []
        case .refused(let refusal):
            refusal.record(at: now, log: &state.log, toasts: &state.toasts)
            return []
        }
    }

    /// The one place the phase changes. Entering `reconnecting` starts the reconnect timer; leaving it
    /// cancels the timer, unless it was the timer running out that moved the loop on.
    private mutating func enter(_ next: SubscriberPhase, at now: SessionTime, timerRanOut: Bool = false) -> [SubscriberAction] {
        let wasWaiting = phase.isWaitingToReplay
        phase = next
        if next.isWaitingToReplay {
            return wasWaiting ? [] : perform([.scheduleTimer(.reconnect, after: reconnectDelay)], at: now)
        }
        return wasWaiting && !timerRanOut ? perform([.cancelTimer(.reconnect)], at: now) : []
    }

    /// Writes the dashboard's fields kept by the phase and the rule for keys: their only writer.
    private mutating func refreshDerivedState() {
        state.lifecycle = simulator.state
        state.connection = phase.connection
        state.reconnectAttempts = phase.loopPlays ?? 0
        state.refusals = currentRefusals
    }

    // MARK: Own lifecycle (SubscribeBackgroundTest)

    private mutating func operate(_ action: OperatorAction, at now: SessionTime) -> [SubscriberAction] {
        if let reason = refusal(of: action) {
            CommandRefusal(asked: "key \(action.rawValue)", reason: reason).record(at: now, log: &state.log, toasts: &state.toasts)
            return []
        }
        return simulator.press(action, at: now, log: &state.log, toasts: &state.toasts).flatMap { lifecycle($0, at: now) }
    }

    /// Seed `willResignActive` → `pauseRender()`, `willEnterForeground` → `resumeRender()`.
    ///
    /// We also resume on `didBecomeActive` while paused: a declined call or dismissed Siri posts
    /// `willResignActive` then `didBecomeActive` with no `willEnterForeground`, and following the seed
    /// alone would leave the display dead for the rest of the session.
    private mutating func lifecycle(_ notification: AppNotification, at now: SessionTime) -> [SubscriberAction] {
        log(now, .lifecycle, notification.rawValue)
        switch notification {
        case .willResignActive:
            guard state.renderActive else { return [] }
            state.renderActive = false
            return perform([.pauseRender], at: now)
        case .willEnterForeground, .didBecomeActive:
            guard !state.renderActive else { return [] }
            state.renderActive = true
            return perform([.resumeRender], at: now)
        case .didEnterBackground, .audioInterruptionBegan, .audioInterruptionEnded, .tap:
            return []
        }
    }

    // MARK: Controls

    private mutating func handleControl(_ control: SubscriberControl, at now: SessionTime) -> [SubscriberAction] {
        log(now, .key, "control \(control.rawValue)")
        switch control {
        case .play:
            switch phase {
            case .idle, .error:
                return enter(.connecting(loopPlays: nil), at: now) + perform([.play(name: state.streamName)], at: now)
            case .connecting, .playing, .replaying, .waitingForPublisher, .stalled, .reconnecting:
                log(now, .policy, "already playing")
                return []
            }
        case .stop:
            state.publisherIsDisconnected = false
            return enter(.idle, at: now) + perform([.stop], at: now)
        }
    }

    // MARK: The publisher's notices (SubscribeTelephonyInterruptTest)

    private mutating func message(_ handler: String, _ parameter: String, at now: SessionTime) -> [SubscriberAction] {
        log(now, .message, "\(handler)(\(parameter))")
        switch handler {
        case "publisherBackground":
            state.publisherIsInBackground = true
            toast("Publish Background", at: now)
            return []
        case "publisherForeground":
            state.publisherIsInBackground = false
            toast("Publisher Foreground", at: now)
            return []
        case "publisherInterrupt":
            // The seed's publisher sends it before stopping; its subscriber shows no handler, so we only
            // tell the operator — the UnpublishNotify that follows drives the loop.
            toast("Publisher Interrupted", at: now)
            return []
        default:
            log(now, .message, "no handler for \(handler)")
            return []
        }
    }

    private mutating func playStatus(_ status: PlayStatus, at now: SessionTime) -> [SubscriberAction] {
        log(now, .rtmp, status.rawValue)
        switch status {
        case .publishNotify:
            // A new publish began: whatever the last one said about its background no longer holds (the
            // seed's publisher sends no publisherForeground after a tap, and Red5's sample keeps the flag).
            if state.publisherIsInBackground {
                state.publisherIsInBackground = false
                log(now, .policy, "publisherIsInBackground = false (a new publish began)")
            }
            return playAccepted(at: now)
        case .start:
            return playAccepted(at: now)
        case .unpublishNotify:
            return publisherGone(at: now)
        case .streamNotFound:
            return playFailed(status.rawValue, at: now)
        case .reset, .stop:
            return []
        }
    }

    /// Seed `onR5StreamStatus` on Unpublish: if the publisher said it went to the background, it was
    /// interrupted — mark it disconnected and start the reconnect sequence. Otherwise the publisher just
    /// stopped: stay connected and wait (servers send PublishNotify when it returns).
    private mutating func publisherGone(at now: SessionTime) -> [SubscriberAction] {
        guard !phase.inReconnectLoop else { return [] }
        guard state.publisherIsInBackground else {
            switch phase {
            case .playing, .connecting, .replaying: return enter(.waitingForPublisher, at: now)
            case .idle, .waitingForPublisher, .stalled, .reconnecting, .error: return []
            }
        }
        state.publisherIsDisconnected = true
        return scheduleReplay(at: now)
    }

    /// Play.Start or PublishNotify: the server took the play, so the loop ends — but nothing is PLAYING
    /// until media of this play arrives (stock servers say Play.Start for a name nobody publishes).
    private mutating func playAccepted(at now: SessionTime) -> [SubscriberAction] {
        switch phase {
        case .idle, .error, .playing:
            return []
        case .connecting, .replaying, .waitingForPublisher, .stalled, .reconnecting:
            return enter(.waitingForPublisher, at: now)
        }
    }

    /// Media of the current play: the stream is back and PLAYING; any loop ends.
    private mutating func mediaArrived(at now: SessionTime) -> [SubscriberAction] {
        switch phase {
        case .idle, .error:
            return []
        case .connecting, .playing, .replaying, .waitingForPublisher, .stalled, .reconnecting:
            if state.publisherIsDisconnected, state.publisherIsInBackground {
                // It unpublished from the background; live media now is a new publish, in the foreground.
                state.publisherIsInBackground = false
                log(now, .policy, "publisherIsInBackground = false (live media of a new publish)")
            }
            state.publisherIsDisconnected = false
            return enter(.playing, at: now)
        }
    }

    /// Old frames (a relay's cache answering a play, held bytes): a state of their own, never PLAYING. The
    /// loop's count is kept; a loop waiting for its timer keeps waiting.
    private mutating func mediaReplayed(at now: SessionTime) -> [SubscriberAction] {
        switch phase {
        case .idle, .error, .replaying, .reconnecting:
            return []
        case .connecting(let plays):
            return enter(.replaying(loopPlays: plays), at: now)
        case .playing, .waitingForPublisher, .stalled:
            return enter(.replaying(loopPlays: nil), at: now)
        }
    }

    private mutating func playFailed(_ reason: String, at now: SessionTime) -> [SubscriberAction] {
        if phase.inReconnectLoop { return scheduleReplay(at: now) }
        guard case .connecting = phase else { return [] }
        return enter(reason == PlayStatus.streamNotFound.rawValue ? .waitingForPublisher : .error(reason), at: now)
    }

    // MARK: The reconnect loop

    /// Starts the loop, or moves it on after a failed play: wait `reconnectDelay`, then play again. A
    /// loop already waiting keeps its timer.
    private mutating func scheduleReplay(at now: SessionTime) -> [SubscriberAction] {
        guard !phase.isWaitingToReplay else { return [] }
        return enter(.reconnecting(plays: phase.loopPlays ?? 0, at: now + reconnectDelay), at: now)
    }

    /// Seed: after the delay, detach the view, drop the delegate, `stop()`, then `reconnect()`.
    private mutating func timerFired(_ timer: SubscriberTimer, at now: SessionTime) -> [SubscriberAction] {
        guard case .reconnecting(let plays, _) = phase else {
            log(now, .engine, "\(timer.rawValue) timer fired after it was cancelled: ignored")
            return []
        }
        log(now, .engine, "\(timer.rawValue) timer fired")
        let played = enter(.connecting(loopPlays: plays + 1), at: now, timerRanOut: true)
        return played + perform([.stop, .play(name: state.streamName)], at: now)
    }

    // MARK: Bookkeeping

    /// Logs each action the owner is asked for; the reconnect timer's bookkeeping is the phase's.
    private mutating func perform(_ actions: [SubscriberAction], at now: SessionTime) -> [SubscriberAction] {
        for action in actions {
            if case .play = action { state.playsAsked += 1 }
            log(now, .policy, "→ \(action)")
        }
        return actions
    }

    /// Posts a notice on the subscriber pane (the seed's `ALToastView.toast`): the screen reads it from
    /// `state.toasts`, so the owner is not asked to do anything.
    private mutating func toast(_ text: String, at now: SessionTime) {
        state.toasts.post(Toast(text: text, postedAt: now))
        log(now, .policy, "→ toast \"\(text)\"")
    }

    /// Every line goes through `Redaction`: a key-like stream name never reaches the log (or its events).
    private mutating func log(_ time: SessionTime, _ source: EventSource, _ text: String) {
        state.log.append(time, source, Redaction.text(text, hiding: state.streamName))
    }
}
