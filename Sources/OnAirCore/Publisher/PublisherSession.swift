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
    /// Written by the session alone (this file): the derived fields by `refreshDerivedState()` only.
    public private(set) var state: PublisherAppState
    public private(set) var simulator = LifecycleSimulator()
    public private(set) var policy: PublisherPolicy
    /// While a key's notifications are delivered one by one, the lifecycle they have reached (`willResignActive`:
    /// inactive, then `didEnterBackground`: background); nil at rest, when the simulator's is the one fact.
    private var delivering: LifecycleState?
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
        case .engine(let text):
            log(now, .engine, text)
            actions = []
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
        state.lifecycle = simulator.state
        state.policy = policy.kind
        state.tapArmed = policy.isTapArmed
        state.liveSince = connection.liveSince
        state.sendStall = connection.sendStall
        state.status = derivedStatus
        state.refusals = currentRefusals
    }

    // MARK: Keys → notifications → policy

    private mutating func operate(_ action: OperatorAction, at now: SessionTime) -> [PublisherAction] {
        let before = simulator.state
        let notifications = simulator.press(action, at: now, log: &state.log, toasts: &state.toasts)
        delivering = before
        defer { delivering = nil }
        return notifications.flatMap { deliver($0, at: now) }
    }

    /// The app's lifecycle as the policy sees it: the simulator's, or how far a key's delivery has got.
    var lifecycle: LifecycleState { delivering ?? simulator.state }

    private mutating func deliver(_ notification: AppNotification, at now: SessionTime) -> [PublisherAction] {
        if let reached = notification.resultingState { delivering = reached }
        log(now, .lifecycle, notification.rawValue)
        // The screen only takes touches while the app is active: during a call or Siri the system UI
        // has it, in the background the home screen does.
        if notification == .tap, lifecycle != .active {
            log(now, .policy, "tap not delivered: the app is \(lifecycle.rawValue)")
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
            lifecycle: lifecycle,
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
        guard !connection.isBroadcasting, lifecycle == .active else { return [] }
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

/// The operator's console controls: toggles, stop, start, and switching the policy at run time.
///
/// Whether a control does something now is decided before it gets here, by `refusal(of:)`.
extension PublisherSession {
    mutating func handleControl(_ control: PublisherControl, at now: SessionTime) -> [PublisherAction] {
        log(now, .key, "control \(control)")
        switch control {
        case .togglePauseVideo:
            let paused = !state.pauseVideo
            defer { state.operatorPausedVideo = paused }
            return apply(.pauseVideo(paused), at: now)
        case .togglePauseAudio:
            let paused = !state.pauseAudio
            defer { state.operatorPausedAudio = paused }
            return apply(.pauseAudio(paused), at: now)
        case .stop:
            var actions = resetPolicy(to: policy.kind, at: now)
            switch connection {
            case .idle:
                break
            case .failed, .dropped:
                // Acknowledges the error, or gives up on a suspended broadcast: back to idle.
                actions += enter(.idle(preview: false), at: now)
            case .connecting, .live, .waitingToReconnect:
                actions += apply(.stop, at: now)
            }
            if previewOn { actions += apply(.preview(false), at: now) }
            return actions
        case .start(let type):
            if connection.isBroadcasting { return reconnectNow(type: type, at: now) }
            var actions = resetPolicy(to: policy.kind, at: now)
            if previewOn { actions += apply(.preview(false), at: now) }
            return actions + apply(.publish(name: state.streamName, type: type ?? policy.kind.newBroadcastType), at: now)
        case .nextPolicy:
            return nextPolicy(at: now)
        }
    }

    /// `p`: the next policy now, or — while an interruption holds the app — when it ends. Switching in
    /// the middle would hand the half-done interruption to a policy that never saw it begin (the
    /// testbed's paused video would never be resumed), so the switch waits and says so. Pressing again
    /// while one waits moves on to the policy after it (also while its tap waits: see `policySwitchWaits`).
    private mutating func nextPolicy(at now: SessionTime) -> [PublisherAction] {
        guard interruptionHoldsApp || policySwitchWaits else {
            state.pendingPolicy = nil
            let next = policy.kind.next
            let actions = resetPolicy(to: next, at: now)
            log(now, .policy, "policy \(next.rawValue)")
            return actions
        }
        let next = (state.pendingPolicy ?? policy.kind).next
        state.pendingPolicy = next == policy.kind ? nil : next
        let text = state.pendingPolicy.map { "policy \($0.rawValue) takes effect when the interruption ends" }
            ?? "policy stays \(policy.kind.rawValue)"
        log(now, .policy, text)
        return apply(.toast(text), at: now)
    }

    /// True while the phone is interrupted (a call, Siri, the background) or the policy holds the
    /// broadcast back to restore it.
    var interruptionHoldsApp: Bool {
        simulator.state != .active || simulator.interruption != nil || policy.isInterrupted
    }

    /// A switch announced for "when the interruption ends" still waits while the old policy's answer
    /// to that interruption is open: after a declined call, `tap-republish` has stopped the stream, said
    /// "Tap to Re-Publish!" and armed the tap (the seed's `didBecomeActive`). The interruption ends for
    /// the broadcast when that tap re-publishes (or a stop or start answers it); switching at the decline
    /// would disarm the tap the toast has just offered.
    var policySwitchWaits: Bool {
        state.pendingPolicy != nil && policy.isTapArmed
    }

    /// After every event: a policy switch that waited for the interruption to end takes effect, and an
    /// app that is active with nothing interrupting it has its camera and microphone back unless the
    /// operator paused them — no sequence of keys can leave video paused by an interruption that is over.
    mutating func settle(at now: SessionTime) -> [PublisherAction] {
        guard !interruptionHoldsApp, !policySwitchWaits else { return [] }
        var actions: [PublisherAction] = []
        if let pending = state.pendingPolicy {
            state.pendingPolicy = nil
            actions += resetPolicy(to: pending, at: now)
            log(now, .policy, "policy \(pending.rawValue) (the interruption ended)")
            actions += apply(.toast("policy \(pending.rawValue) now in force"), at: now)
        }
        guard !policy.isTapArmed else { return actions }
        if state.pauseVideo && !state.operatorPausedVideo {
            log(now, .policy, "the app is active and nothing interrupts it: video resumes")
            actions += apply(.pauseVideo(false), at: now)
            if connection.isLive { actions += apply(.requestKeyframe, at: now) }
        }
        if state.pauseAudio && !state.operatorPausedAudio {
            log(now, .policy, "the app is active and nothing interrupts it: audio resumes")
            actions += apply(.pauseAudio(false), at: now)
        }
        return actions
    }

    /// Replaces the policy with a fresh one of `kind` — the operator took over, or switched policies —
    /// undoing what the old one left pending (an armed tap, a suspension timer). The connection and
    /// the pause flags stay as they are: switching keeps whatever is live.
    private mutating func resetPolicy(to kind: PublisherPolicyKind, at now: SessionTime) -> [PublisherAction] {
        var actions: [PublisherAction] = []
        if policy.isTapArmed { actions += apply(.disarmTap, at: now) }
        actions += cancel(.suspension, at: now)
        policy = PublisherPolicy(kind, suspendTimeout: suspendTimeout)
        return actions
    }

    /// Logs and toasts why `command` is refused, and returns true; false when it may go ahead.
    mutating func refuse(_ command: PublisherCommand, at now: SessionTime) -> Bool {
        guard let reason = refusal(of: command) else { return false }
        let asked = switch command {
        case .operator(let action): "key \(action.rawValue)"
        case .control(let control): "control \(control)"
        }
        CommandRefusal(asked: asked, reason: reason).record(at: now, log: &state.log, toasts: &state.toasts)
        return true
    }
}
