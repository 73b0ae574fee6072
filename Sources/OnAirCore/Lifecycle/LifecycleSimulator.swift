/// Turns the operator's keys into the iOS notifications a real phone would post, in iOS order
/// (docs/design.md §1.1), or refuses a key iOS could not deliver in the current state.
///
/// It is a value with no clock and no I/O: `handle(_:)` returns what to deliver, and the owner (a publisher
/// or subscriber session) passes each notification on, in order.
///
/// Audio-session interruptions: a phone call takes the audio device (vonage-ios-background-state.txt,
/// "Losing Control"), so `c` posts `audioInterruptionBegan` after `willResignActive`, and the call handing
/// the device back posts `audioInterruptionEnded` — on decline, and on the return to the app after an
/// accepted call. The simulator has no "hang up" key, so the return stands for "the call ended, then the
/// user re-launched the app": `audioInterruptionEnded` comes first, then `willEnterForeground`,
/// `didBecomeActive`. On decline the call ends before the app is active again, so again the interruption
/// ends first.
///
/// Siri: the blog (red5pro-blog-ios-interruptions.txt, Scenarios 1–2) treats Siri like a declined call at
/// the UIApplication level — `willResignActive`, then `didBecomeActive` when dismissed — and that is all
/// we post. Real Siri does interrupt other audio sessions briefly, but the seeds name only phone and
/// FaceTime calls as what suspends a background-audio app, and a Siri request lasts seconds, far below
/// the suspension timeout; modelling it would only add a pause of the audio nobody asked to rehearse.
/// Because Siri is not a call, `a` (accept) is refused while Siri is up.
public struct LifecycleSimulator: Sendable, Equatable {
    /// What holds the app away from `.active`, when something does.
    public enum Interruption: String, Sendable, Equatable, Codable {
        /// A call is ringing: the app is inactive and the call holds the audio device.
        case ringingCall
        /// Siri is up: the app is inactive, the audio device is not taken.
        case siri
        /// The call was accepted: the app is in the background and the call holds the audio device.
        case acceptedCall
    }

    /// What a key does.
    public enum Outcome: Sendable, Equatable {
        /// The notifications to deliver, in order (may be just `[.tap]`).
        case delivered([AppNotification])
        /// The key is not possible now; the reason is the short notice the operator sees.
        case refused(String)
    }

    public private(set) var state: LifecycleState
    public private(set) var interruption: Interruption?

    /// Why `a` does nothing while Siri is up; the footer reads it to name `d` "dismiss", not "decline".
    public static let siriIsUpRefusal = "Siri is up, there is no call to accept (d dismisses Siri)"

    public init(state: LifecycleState = .active, interruption: Interruption? = nil) {
        self.state = state
        self.interruption = interruption
    }

    /// Whether the audio device is held by a call (between `audioInterruptionBegan` and `…Ended`).
    public var callHoldsAudio: Bool { interruption == .ringingCall || interruption == .acceptedCall }

    /// Why `action` is impossible now, or nil when it would be delivered: `OperatorAction.refusal(in:)`,
    /// plus accepting while Siri (not a call) is up. The console can show it before a key is pressed.
    public func refusal(of action: OperatorAction) -> String? {
        if let reason = action.refusal(in: state) { return reason }
        if action == .accept, interruption == .siri {
            return Self.siriIsUpRefusal
        }
        return nil
    }

    public mutating func handle(_ action: OperatorAction) -> Outcome {
        if let reason = refusal(of: action) { return .refused(reason) }
        switch action {
        case .incomingCall:
            return move(to: .inactive, interruption: .ringingCall, [.willResignActive, .audioInterruptionBegan])
        case .siri:
            return move(to: .inactive, interruption: .siri, [.willResignActive])
        case .decline:
            let ended: [AppNotification] = callHoldsAudio ? [.audioInterruptionEnded] : []
            return move(to: .active, interruption: nil, ended + [.didBecomeActive])
        case .accept:
            return move(to: .background, interruption: .acceptedCall, [.didEnterBackground])
        case .home:
            return move(to: .background, interruption: nil, [.willResignActive, .didEnterBackground])
        case .returnToApp:
            let ended: [AppNotification] = callHoldsAudio ? [.audioInterruptionEnded] : []
            return move(to: .active, interruption: nil, ended + [.willEnterForeground, .didBecomeActive])
        case .tap:
            return .delivered([.tap])
        }
    }

    private mutating func move(
        to newState: LifecycleState,
        interruption newInterruption: Interruption?,
        _ notifications: [AppNotification]
    ) -> Outcome {
        state = newState
        interruption = newInterruption
        return .delivered(notifications)
    }
}
