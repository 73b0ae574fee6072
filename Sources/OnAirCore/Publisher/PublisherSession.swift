/// The publisher as the front ends drive it: the lifecycle simulator, the interrupt policy in force, the
/// connection and its automatic reconnects, composed into one value that keeps `PublisherAppState`.
///
/// The owner feeds every key, control, network event and timer, stamped with its clock:
/// ```swift
/// let actions = session.handle(.operator(.incomingCall), at: now)
/// ```
/// and performs the returned actions in order — only those the owner performs (`requiresOwner`): the
/// display calls a policy makes (toasts, the preview, the tap arming) are applied to `state`, which is
/// then ready to draw. Every notification, action and network event is written to
/// `state.log` with `now`.
///
/// Each fact is kept once. The connection's life is one enum with payloads (`PublisherConnectionPhase`:
/// the reconnect attempt, the live time, the send-stall watchdog and the preview live in the phase they
/// belong to), assigned by one function, `enter(_:at:)`, which also starts and cancels the phase's
/// timers, so no flow assigns it behind another's back (CONVENTIONS habit 1). Whether a tap is armed is
/// the tap-republish policy's flag. `state` is what the screens read: the fields derived from the phase
/// and the policy are written by `refreshDerivedState()` after every event and nowhere else. The
/// session never asks for `publish` while a connection is connecting or live: each policy stops or
/// loses the old stream first.
public struct PublisherSession: Sendable, Equatable {
    public internal(set) var state: PublisherAppState
    public internal(set) var simulator = LifecycleSimulator()
    public internal(set) var policy: PublisherPolicy
    /// Assigned by `enter(_:at:)` only.
    public private(set) var connection = PublisherConnectionPhase.idle(preview: false)
    var reconnect: ReconnectPolicy
    let suspendTimeout: Duration
    /// `--send-timeout`: how long a live socket may take nothing before STALLED (`SendStallWatchdog`).
    let sendTimeout: Duration

    /// The local camera preview shows: a payload of the idle phase.
    public var previewOn: Bool { connection.previewOn }

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
        sendTimeout = configuration.sendTimeout
        refreshDerivedState()
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
        case .refused(let refusal):
            refusal.record(at: now, log: &state.log, toasts: &state.toasts)
            actions = []
        }
        actions += settle(at: now)
        refreshDerivedState()
        return actions.filter(\.requiresOwner)
    }

    /// Writes the dashboard's derived fields from the one place each is kept: the phase, the policy and
    /// the rule for commands. The only writer of these fields.
    private mutating func refreshDerivedState() {
        state.policy = policy.kind
        state.tapArmed = policy.isTapArmed
        state.liveSince = connection.liveSince
        state.sendStall = connection.sendStall
        state.status = derivedStatus
        state.refusals = currentRefusals
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
            publishType: state.publishType
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
            guard connection.isLive else {
                log(now, .message, "\(handler) not sent: no live stream")
                return []
            }
        case .publish(_, let type):
            performed += startingFresh(at: now)
            // A publish from a scheduled reconnect (or `r`) carries its attempt on; any other is new.
            performed += enter(.connecting(reconnectAttempt: connection.reconnectAttempt), at: now)
            state.connectionsOpened += 1
            state.publishType = type
        case .stop:
            performed += cancel(.reconnect, at: now)
            performed += enter(.idle(preview: false), at: now)
        case .dropConnection:
            performed += cancel(.reconnect, at: now)
            performed += enter(.dropped, at: now)
        case .abandonConnection:
            break
        case .preview(let on):
            // The preview belongs to the idle phase: a publish takes the view.
            if case .idle = connection { performed += enter(.idle(preview: on), at: now) }
        case .toast(let text):
            state.toasts.post(Toast(text: text, postedAt: now))
        case .armTap, .disarmTap:
            // The policy keeps the flag; the action only tells the owner.
            break
        case .scheduleTimer(let timer, let after):
            state.timerDeadlines[timer] = now + after
        case .cancelTimer(let timer):
            guard state.timerDeadlines.removeValue(forKey: timer) != nil else { return [] }
        case .requestKeyframe:
            break
        }
        if isLogged(action) { log(now, logSource(of: action), "→ \(action)") }
        return performed + [action]
    }

    /// Cancels `timer` if it runs.
    mutating func cancel(_ timer: PublisherTimer, at now: SessionTime) -> [PublisherAction] {
        pendingTimers.contains(timer) ? apply(.cancelTimer(timer), at: now) : []
    }

    /// The one place the connection phase changes. Going live starts the send-stall watchdog's timer and
    /// leaving live cancels it, so no timer outlives its phase; the session timer (`onAirSince`) starts
    /// with the first live connection of a broadcast and stops unless a reconnect is to follow.
    mutating func enter(_ next: PublisherConnectionPhase, at now: SessionTime) -> [PublisherAction] {
        let wasLive = connection.isLive
        connection = next
        var actions: [PublisherAction] = []
        switch next {
        case .live(let since, let watchdog):
            if !wasLive { actions += apply(.scheduleTimer(.sendStall, after: watchdog.stallAfter), at: now) }
            if state.onAirSince == nil { state.onAirSince = since }
        case .connecting, .waitingToReconnect:
            if wasLive { actions += cancel(.sendStall, at: now) }
        case .idle, .dropped, .failed:
            if wasLive { actions += cancel(.sendStall, at: now) }
            state.onAirSince = nil
        }
        return actions
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

    /// The send-stall watchdog's timer is started again every `--send-timeout` while a link flows: those
    /// routine checks would drown the log, so only what they find (STALLED, flowing again, torn down) is
    /// written there.
    private func isLogged(_ action: PublisherAction) -> Bool {
        switch action {
        case .scheduleTimer(.sendStall, _), .cancelTimer(.sendStall): false
        default: true
        }
    }

    private func logSource(of action: PublisherAction) -> EventSource {
        switch action {
        case .send: .message
        case .scheduleTimer(.reconnect, _), .cancelTimer(.reconnect), .abandonConnection,
             .scheduleTimer(.sendStall, _), .cancelTimer(.sendStall): .engine
        default: .policy
        }
    }

    // MARK: Timers

    private mutating func timerFired(_ timer: PublisherTimer, at now: SessionTime) -> [PublisherAction] {
        guard state.timerDeadlines.removeValue(forKey: timer) != nil else {
            log(now, .engine, "\(timer.rawValue) timer fired after it was cancelled: ignored")
            return []
        }
        if timer != .sendStall { log(now, .engine, "\(timer.rawValue) timer fired") }
        switch timer {
        case .reconnect: return attemptReconnect(at: now)
        case .suspension: return runPolicy(.timerFired(timer), at: now)
        case .sendStall: return checkSendStall(at: now)
        }
    }

    // MARK: Status

    /// The badge, derived from one place so it can never disagree with the flags it summarises.
    var derivedStatus: PublisherStatus {
        switch connection {
        case .failed(let message): return .error(message)
        case .waitingToReconnect(let attempt), .connecting(reconnectAttempt: let attempt?):
            return .reconnecting(attempt: attempt, maxAttempts: reconnect.configuration.maxAttempts)
        case .connecting(reconnectAttempt: nil): return .connecting
        case .live(_, let watchdog):
            if watchdog.stall != nil { return .stalled }
            if policy.isInterrupted { return .interrupted }
            return state.pauseVideo ? .pausedVideo : .publishing
        case .idle(let preview):
            if policy.isInterrupted { return .interrupted }
            if policy.isTapArmed { return .awaitingTap }
            return preview ? .preview : .idle
        case .dropped:
            if policy.isInterrupted { return .interrupted }
            return policy.isTapArmed ? .awaitingTap : .idle
        }
    }

    /// Every line goes through `Redaction`: a key-like stream name never reaches the log (or its events).
    mutating func log(_ time: SessionTime, _ source: EventSource, _ text: String) {
        state.log.append(time, source, Redaction.text(text, hiding: state.streamName))
    }
}
