/// The publisher as the front ends drive it: the lifecycle simulator, the interrupt policy in force, the
/// connection and its automatic reconnects, composed into one value that keeps `PublisherAppState`.
///
/// The owner feeds every key, control, network event and timer, stamped with its clock:
/// ```swift
/// let actions = session.handle(.operator(.incomingCall), at: now)
/// ```
/// and performs the returned actions in order (`PublisherAction.requiresOwner` says which need I/O);
/// `state` is then ready to draw. Every notification, action and network event is written to
/// `state.log` with `now`.
///
/// The connection phase is assigned by three functions only — `apply(_:at:)` (the actions the owner
/// performs: publish, stop, drop), `endConnection(_:)` (every way a connection ends) and the
/// Publish.Start handler — so no flow assigns it behind another's back (CONVENTIONS habit 1). The
/// session never asks for `publish` while a connection is connecting or live: each policy stops or
/// loses the old stream first.
public struct PublisherSession: Sendable, Equatable {
    public internal(set) var state: PublisherAppState
    public internal(set) var simulator = LifecycleSimulator()
    public internal(set) var policy: PublisherPolicy
    public internal(set) var connection = PublisherConnectionPhase.none
    public internal(set) var previewOn = false
    var reconnect: ReconnectPolicy
    var watchdog: SendStallWatchdog
    /// The attempt number while the `publish` under way is an automatic reconnect.
    var reconnectAttempt: Int?
    let suspendTimeout: Duration

    /// The timers the owner is running for this session; a `timerFired` for any other is stale and ignored.
    public var pendingTimers: Set<PublisherTimer> { Set(state.timerDeadlines.keys) }

    public init(configuration: PublisherConfiguration) {
        state = PublisherAppState(
            policy: configuration.policy,
            streamName: configuration.streamName,
            redactedURL: configuration.redactedURL
        )
        policy = PublisherPolicy(configuration.policy, suspendTimeout: configuration.suspendTimeout)
        reconnect = configuration.reconnect
        suspendTimeout = configuration.suspendTimeout
        watchdog = SendStallWatchdog(stallAfter: configuration.sendTimeout)
        state.refusals = currentRefusals
    }

    public mutating func handle(_ event: PublisherEvent, at now: SessionTime) -> [PublisherAction] {
        var actions: [PublisherAction]
        switch event {
        case .operator(let action):
            actions = refuse(.operator(action), at: now) ? [] : operate(action, at: now)
        case .control(let control):
            actions = refuse(.control(control), at: now) ? [] : handleControl(control, at: now)
        case .network(let network): actions = handleNetwork(network, at: now)
        case .timerFired(let timer): actions = timerFired(timer, at: now)
        case .wire(let progress): actions = observeWire(progress, at: now)
        }
        actions += settle(at: now)
        state.status = derivedStatus
        state.refusals = currentRefusals
        return actions
    }

    // MARK: Keys → notifications → policy

    private mutating func operate(_ action: OperatorAction, at now: SessionTime) -> [PublisherAction] {
        simulator.press(action, at: now, log: &state.log, toasts: &state.toasts).flatMap { deliver($0, at: now) }
    }

    private mutating func deliver(_ notification: AppNotification, at now: SessionTime) -> [PublisherAction] {
        if let lifecycle = notification.resultingState { state.lifecycle = lifecycle }
        log(now, .lifecycle, notification.rawValue)
        // The screen only takes touches while the app is active: during a call or Siri the system UI
        // has it, in the background the home screen does.
        if notification == .tap, state.lifecycle != .active {
            log(now, .policy, "tap not delivered: the app is \(state.lifecycle.rawValue)")
            return []
        }
        return runPolicy(.notification(notification), at: now)
    }

    mutating func runPolicy(_ input: PolicyInput, at now: SessionTime) -> [PublisherAction] {
        let decided = policy.handle(input, in: context)
        return decided.flatMap { apply($0, at: now) }
    }

    var context: PolicyContext {
        PolicyContext(
            streamName: state.streamName,
            lifecycle: state.lifecycle,
            connection: connection,
            publishType: state.publishType,
            previewOn: previewOn
        )
    }

    // MARK: Applying actions

    /// Records what `action` changes in the session, logs it, and returns what the owner must perform
    /// (the action itself, possibly preceded by a timer cancel; nothing for a notice that cannot be sent).
    mutating func apply(_ action: PublisherAction, at now: SessionTime) -> [PublisherAction] {
        var performed: [PublisherAction] = []
        switch action {
        case .pauseVideo(let paused):
            state.pauseVideo = paused
            // A resume by a policy (or the session) lifts the operator's pause too: the latest word wins.
            if !paused { state.operatorPausedVideo = false }
        case .pauseAudio(let paused):
            state.pauseAudio = paused
            if !paused { state.operatorPausedAudio = false }
        case .send(let handler, _):
            // Red5's `send` rides the live stream; without one there is nobody to tell.
            guard connection == .live else {
                log(now, .message, "\(handler) not sent: no live stream")
                return []
            }
        case .publish(_, let type):
            performed += startingFresh(at: now)
            connection = .connecting
            state.connectionsOpened += 1
            state.publishType = type
            previewOn = false
        case .stop:
            performed += cancel(.reconnect, at: now)
            endConnection(.none)
        case .dropConnection:
            performed += cancel(.reconnect, at: now)
            endConnection(.dropped)
        case .abandonConnection:
            break
        case .preview(let on):
            previewOn = on
        case .toast(let text):
            state.toasts.post(Toast(text: text, postedAt: now))
        case .armTap:
            state.tapArmed = true
        case .disarmTap:
            state.tapArmed = false
        case .scheduleTimer(let timer, let after):
            state.timerDeadlines[timer] = now + after
        case .cancelTimer(let timer):
            guard state.timerDeadlines.removeValue(forKey: timer) != nil else { return [] }
        case .requestKeyframe:
            break
        }
        log(now, logSource(of: action), "→ \(action)")
        return performed + [action]
    }

    /// Cancels `timer` if it runs.
    mutating func cancel(_ timer: PublisherTimer, at now: SessionTime) -> [PublisherAction] {
        pendingTimers.contains(timer) ? apply(.cancelTimer(timer), at: now) : []
    }

    /// Leaves the connected phases: no reconnect attempt is under way. The session timer stops unless an
    /// automatic reconnect is to follow.
    mutating func endConnection(_ phase: PublisherConnectionPhase) {
        connection = phase
        reconnectAttempt = nil
        state.liveSince = nil
        state.sendStall = nil
        if case .waitingToReconnect = phase { return }
        state.onAirSince = nil
    }

    /// A new broadcast (not a reconnect) from an active app starts with video and audio on, as a new
    /// Red5 stream does: a pause a policy or the operator left behind on a stopped broadcast does not
    /// carry over into it (the next tap would otherwise publish black and silent).
    private mutating func startingFresh(at now: SessionTime) -> [PublisherAction] {
        guard !connection.isBroadcasting, state.lifecycle == .active else { return [] }
        var actions: [PublisherAction] = []
        if state.pauseVideo { actions += apply(.pauseVideo(false), at: now) }
        if state.pauseAudio { actions += apply(.pauseAudio(false), at: now) }
        return actions
    }

    private func logSource(of action: PublisherAction) -> EventSource {
        switch action {
        case .send: .message
        case .scheduleTimer(.reconnect, _), .cancelTimer(.reconnect), .abandonConnection: .engine
        default: .policy
        }
    }

    // MARK: Timers

    private mutating func timerFired(_ timer: PublisherTimer, at now: SessionTime) -> [PublisherAction] {
        guard state.timerDeadlines.removeValue(forKey: timer) != nil else {
            log(now, .engine, "\(timer.rawValue) timer fired after it was cancelled: ignored")
            return []
        }
        log(now, .engine, "\(timer.rawValue) timer fired")
        switch timer {
        case .reconnect: return attemptReconnect(at: now)
        case .suspension: return runPolicy(.timerFired(timer), at: now)
        }
    }

    // MARK: Status

    /// The badge, derived from one place so it can never disagree with the flags it summarises.
    var derivedStatus: PublisherStatus {
        if let attempt = reconnectAttempt {
            return .reconnecting(attempt: attempt, maxAttempts: reconnect.configuration.maxAttempts)
        }
        switch connection {
        case .failed(let message): return .error(message)
        case .waitingToReconnect(let attempt):
            return .reconnecting(attempt: attempt, maxAttempts: reconnect.configuration.maxAttempts)
        case .connecting: return .connecting
        case .live:
            if state.sendStall != nil { return .stalled }
            if policy.isInterrupted { return .interrupted }
            return state.pauseVideo ? .pausedVideo : .publishing
        case .none, .dropped:
            if policy.isInterrupted { return .interrupted }
            if state.tapArmed { return .awaitingTap }
            return previewOn ? .preview : .idle
        }
    }

    /// Every line goes through `Redaction`: a key-like stream name never reaches the log (or its events).
    mutating func log(_ time: SessionTime, _ source: EventSource, _ text: String) {
        state.log.append(time, source, Redaction.text(text, hiding: state.streamName))
    }
}
