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
    /// would disarm the tap the toast has just offered — AWAITING TAP, tapArmed and the toast must say
    /// the same thing.
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
}
