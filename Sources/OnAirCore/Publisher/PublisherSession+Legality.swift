/// The one rule that says whether an operator command does something now. The session refuses what it
/// names (with the reason, logged and toasted); the console's footer and help overlay, headless stdin and
/// scenario presses all go through it, reading `state.refusals` or calling `refusal(of:)`.
extension PublisherSession {
    /// Why `command` would do nothing now, or nil when the session acts on it.
    public func refusal(of command: PublisherCommand) -> String? {
        switch command {
        case .operator(let action): refusal(of: action)
        case .control(let control): refusal(of: control)
        }
    }

    /// The commands the session acts on now, in key order.
    public var acceptedCommands: [PublisherCommand] {
        PublisherCommand.all.filter { refusal(of: $0) == nil }
    }

    var currentRefusals: [PublisherCommand: String] {
        var refusals: [PublisherCommand: String] = [:]
        for command in PublisherCommand.all {
            if let reason = refusal(of: command) { refusals[command] = reason }
        }
        return refusals
    }

    private func refusal(of action: OperatorAction) -> String? {
        if let reason = simulator.refusal(of: action) { return reason }
        guard action == .tap else { return nil }
        if simulator.state != .active {
            return "the app is \(simulator.state.rawValue): the system has the screen, a tap reaches the app once it is active"
        }
        if policy.isTapArmed || !connection.isBroadcasting { return nil }
        return "already broadcasting: a tap only re-publishes after \"Tap to Re-Publish!\""
    }

    private func refusal(of control: PublisherControl) -> String? {
        switch control {
        case .togglePauseVideo, .togglePauseAudio:
            guard connection.isBroadcasting else { return "only while broadcasting (space/t starts one)" }
            guard !interruptionHoldsApp else {
                return "the interruption holds camera and microphone now; the toggles work once the app is active"
            }
            return nil
        case .stop:
            // A preview is something to stop too: `connection` is then `.idle(preview: true)`.
            let somethingToStop = connection != .idle(preview: false) || policy.isTapArmed || policy.isInterrupted
            return somethingToStop ? nil : "nothing to stop: no broadcast (space/t starts one)"
        case .start:
            if simulator.state != .active || simulator.interruption != nil {
                return connection.isBroadcasting
                    ? "the app is \(simulator.state.rawValue): r reconnects once the app is active"
                    : "the app is \(simulator.state.rawValue): a broadcast starts once the app is active"
            }
            // While broadcasting, `r` reconnects now: not while a policy holds the broadcast back, whose
            // own flow restores it (a reconnect would publish what the interruption paused).
            if connection.isBroadcasting, policy.isInterrupted {
                return "the interruption holds the broadcast; r reconnects once it is over"
            }
            return nil
        case .nextPolicy:
            return nil
        }
    }
}
