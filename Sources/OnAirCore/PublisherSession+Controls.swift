/// The operator's console controls: toggles, stop, start, and switching the policy at run time.
extension PublisherSession {
    mutating func handleControl(_ control: PublisherControl, at now: SessionTime) -> [PublisherAction] {
        log(now, .key, "control \(control)")
        switch control {
        case .togglePauseVideo:
            return apply(.pauseVideo(!state.pauseVideo), at: now)
        case .togglePauseAudio:
            return apply(.pauseAudio(!state.pauseAudio), at: now)
        case .stop:
            switch connection {
            case .none:
                log(now, .policy, "nothing to stop")
                return resetPolicy(to: policy.kind, at: now)
            case .failed, .dropped:
                // Acknowledges the error, or gives up on a suspended broadcast: back to idle.
                endConnection(.none)
                return resetPolicy(to: policy.kind, at: now)
            case .connecting, .live, .waitingToReconnect:
                return resetPolicy(to: policy.kind, at: now) + apply(.stop, at: now)
            }
        case .start(let type):
            guard !connection.isBroadcasting else {
                log(now, .policy, "already broadcasting")
                return []
            }
            var actions = resetPolicy(to: policy.kind, at: now)
            if previewOn { actions += apply(.preview(false), at: now) }
            return actions + apply(.publish(name: state.streamName, type: type ?? policy.kind.newBroadcastType), at: now)
        case .nextPolicy:
            let next = policy.kind.next
            let actions = resetPolicy(to: next, at: now)
            log(now, .policy, "policy \(next.rawValue)")
            return actions
        }
    }

    /// Replaces the policy with a fresh one of `kind` — the operator took over, or switched policies —
    /// undoing what the old one left pending (an armed tap, a suspension timer). The connection and
    /// the pause flags stay as they are: switching keeps whatever is live.
    private mutating func resetPolicy(to kind: PublisherPolicyKind, at now: SessionTime) -> [PublisherAction] {
        var actions: [PublisherAction] = []
        if state.tapArmed { actions += apply(.disarmTap, at: now) }
        actions += cancel(.suspension, at: now)
        policy = PublisherPolicy(kind, suspendTimeout: suspendTimeout)
        state.policy = kind
        return actions
    }
}
