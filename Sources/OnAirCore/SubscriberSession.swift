/// The subscriber as the front ends drive it: its own lifecycle simulator, the publisher's notices, and
/// the reconnect loop, kept in `SubscriberAppState`.
///
/// Seeds: SubscribeTelephonyInterruptTest (red5pro-publish-subscribe-telephony-interrupt.md) for the
/// notices and the loop, SubscribeBackgroundTest (red5pro-subscribe-background.md) for render pausing.
/// The owner feeds events stamped with its clock and performs the returned actions in order.
public struct SubscriberSession: Sendable, Equatable {
    public private(set) var state: SubscriberAppState
    public private(set) var simulator = LifecycleSimulator()
    public private(set) var pendingTimers: Set<SubscriberTimer> = []
    /// How long to wait after losing the stream before playing again (the seed's `asyncAfter(.now() + 2.0)`).
    public let reconnectDelay: Duration
    /// True from losing the stream until it is back: each failed play schedules another.
    private var inReconnectLoop = false

    public init(streamName: String, redactedURL: String, reconnectDelay: Duration = .seconds(2)) {
        state = SubscriberAppState(streamName: streamName, redactedURL: redactedURL)
        self.reconnectDelay = reconnectDelay
        state.refusals = currentRefusals
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
        defer { state.refusals = currentRefusals }
        switch event {
        case .operator(let action): return operate(action, at: now)
        case .control(let control): return handleControl(control, at: now)
        case .message(let handler, let parameter): return message(handler, parameter, at: now)
        case .status(let status): return playStatus(status, at: now)
        case .mediaResumed:
            log(now, .engine, "media resumed")
            return mediaArrived(at: now)
        case .mediaStalled:
            log(now, .engine, "no media: stall watchdog")
            if state.connection == .playing { state.connection = .stalled }
            return publisherGone(at: now)
        case .playFailed(let reason):
            log(now, .error, "play failed: \(reason)")
            return playFailed(reason, at: now)
        case .connectionLost(let reason):
            log(now, .error, "connection lost: \(reason)")
            switch state.connection {
            case .idle, .error: return []
            case .connecting, .playing, .waitingForPublisher, .stalled, .reconnecting: return startReconnectLoop(at: now)
            }
        case .timerFired(let timer):
            return timerFired(timer, at: now)
        }
    }

    // MARK: Own lifecycle (SubscribeBackgroundTest)

    private mutating func operate(_ action: OperatorAction, at now: SessionTime) -> [SubscriberAction] {
        if let reason = refusal(of: action) {
            log(now, .key, "key \(action.rawValue)")
            log(now, .key, "refused: \(reason)")
            state.toasts.post(Toast(text: reason, postedAt: now))
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
        if let lifecycle = notification.resultingState { state.lifecycle = lifecycle }
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
            switch state.connection {
            case .idle, .error:
                state.connection = .connecting
                return perform([.play(name: state.streamName)], at: now)
            case .connecting, .playing, .waitingForPublisher, .stalled, .reconnecting:
                log(now, .policy, "already playing")
                return []
            }
        case .stop:
            let cancel: [SubscriberAction] = pendingTimers.contains(.reconnect) ? [.cancelTimer(.reconnect)] : []
            inReconnectLoop = false
            state.connection = .idle
            state.publisherIsDisconnected = false
            state.reconnectAttempts = 0
            return perform(cancel + [.stop], at: now)
        }
    }

    // MARK: The publisher's notices (SubscribeTelephonyInterruptTest)

    private mutating func message(_ handler: String, _ parameter: String, at now: SessionTime) -> [SubscriberAction] {
        log(now, .message, "\(handler)(\(parameter))")
        switch handler {
        case "publisherBackground":
            state.publisherIsInBackground = true
            return perform([.toast("Publish Background")], at: now)
        case "publisherForeground":
            state.publisherIsInBackground = false
            return perform([.toast("Publisher Foreground")], at: now)
        case "publisherInterrupt":
            // The seed's publisher sends it before stopping; its subscriber shows no handler, so we only
            // tell the operator — the UnpublishNotify that follows drives the loop.
            return perform([.toast("Publisher Interrupted")], at: now)
        default:
            log(now, .message, "no handler for \(handler)")
            return []
        }
    }

    private mutating func playStatus(_ status: PlayStatus, at now: SessionTime) -> [SubscriberAction] {
        log(now, .rtmp, status.rawValue)
        switch status {
        case .start, .publishNotify:
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
        guard !inReconnectLoop else { return [] }
        guard state.publisherIsInBackground else {
            if state.connection == .playing || state.connection == .connecting {
                state.connection = .waitingForPublisher
            }
            return []
        }
        if state.connection == .stalled { state.connection = .waitingForPublisher }
        state.publisherIsDisconnected = true
        return startReconnectLoop(at: now)
    }

    /// Play.Start or PublishNotify: the server took the play, so the loop ends — but nothing is PLAYING
    /// until media of this play arrives (stock servers say Play.Start for a name nobody publishes).
    private mutating func playAccepted(at now: SessionTime) -> [SubscriberAction] {
        switch state.connection {
        case .idle, .error, .playing:
            return []
        case .connecting, .waitingForPublisher, .stalled, .reconnecting:
            break
        }
        let cancel: [SubscriberAction] = pendingTimers.contains(.reconnect) ? [.cancelTimer(.reconnect)] : []
        inReconnectLoop = false
        state.reconnectAttempts = 0
        state.connection = .waitingForPublisher
        return perform(cancel, at: now)
    }

    /// Media of the current play: the stream is back and PLAYING; any loop ends.
    private mutating func mediaArrived(at now: SessionTime) -> [SubscriberAction] {
        switch state.connection {
        case .idle, .error:
            return []
        case .connecting, .playing, .waitingForPublisher, .stalled, .reconnecting:
            break
        }
        let cancel: [SubscriberAction] = pendingTimers.contains(.reconnect) ? [.cancelTimer(.reconnect)] : []
        inReconnectLoop = false
        state.publisherIsDisconnected = false
        state.reconnectAttempts = 0
        state.connection = .playing
        return perform(cancel, at: now)
    }

    private mutating func playFailed(_ reason: String, at now: SessionTime) -> [SubscriberAction] {
        if inReconnectLoop { return scheduleReplay(at: now) }
        switch state.connection {
        case .connecting:
            if reason == PlayStatus.streamNotFound.rawValue {
                state.connection = .waitingForPublisher
            } else {
                state.connection = .error(reason)
            }
        case .idle, .playing, .waitingForPublisher, .stalled, .reconnecting, .error:
            break
        }
        return []
    }

    // MARK: The reconnect loop

    private mutating func startReconnectLoop(at now: SessionTime) -> [SubscriberAction] {
        inReconnectLoop = true
        return scheduleReplay(at: now)
    }

    private mutating func scheduleReplay(at now: SessionTime) -> [SubscriberAction] {
        guard !pendingTimers.contains(.reconnect) else { return [] }
        state.connection = .reconnecting(at: now + reconnectDelay)
        return perform([.scheduleTimer(.reconnect, after: reconnectDelay)], at: now)
    }

    /// Seed: after the delay, detach the view, drop the delegate, `stop()`, then `reconnect()`.
    private mutating func timerFired(_ timer: SubscriberTimer, at now: SessionTime) -> [SubscriberAction] {
        guard pendingTimers.contains(timer), inReconnectLoop else {
            log(now, .engine, "\(timer.rawValue) timer fired after it was cancelled: ignored")
            return []
        }
        pendingTimers.remove(timer)
        log(now, .engine, "\(timer.rawValue) timer fired")
        state.reconnectAttempts += 1
        state.connection = .connecting
        return perform([.stop, .play(name: state.streamName)], at: now)
    }

    // MARK: Bookkeeping

    private mutating func perform(_ actions: [SubscriberAction], at now: SessionTime) -> [SubscriberAction] {
        for action in actions {
            switch action {
            case .scheduleTimer(let timer, _): pendingTimers.insert(timer)
            case .cancelTimer(let timer): pendingTimers.remove(timer)
            case .toast(let text): state.toasts.post(Toast(text: text, postedAt: now))
            case .play, .stop, .pauseRender, .resumeRender: break
            }
            log(now, .policy, "→ \(action)")
        }
        return actions
    }

    /// Every line goes through `Redaction`: a key-like stream name never reaches the log (or its events).
    private mutating func log(_ time: SessionTime, _ source: EventSource, _ text: String) {
        state.log.append(time, source, Redaction.text(text, hiding: state.streamName))
    }
}
