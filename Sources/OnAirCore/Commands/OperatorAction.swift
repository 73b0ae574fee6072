/// What the operator does to the simulated phone app (docs/design.md §1.1). Keys map to these in the console;
/// the same names are used on stdin in headless mode and in scenario files.
public enum OperatorAction: String, Sendable, Equatable, CaseIterable, Codable {
    /// `c`: an incoming phone call rings.
    case incomingCall = "call"
    /// `s`: Siri is activated.
    case siri
    /// `d`: the call is declined, or Siri dismissed.
    case decline
    /// `a`: the call is accepted (the app goes to the background).
    case accept
    /// `h`: the Home button.
    case home
    /// `f`: the app is re-launched from the background.
    case returnToApp = "return"
    /// `space` / `t`: a tap on the screen; its meaning depends on the policy.
    case tap

    /// Whether iOS could deliver this action in `state` (docs/design.md §1.1, "allowed when").
    public func isAllowed(in state: LifecycleState) -> Bool {
        switch self {
        case .incomingCall, .siri, .home: state == .active
        case .decline, .accept: state == .inactive
        case .returnToApp: state == .background
        case .tap: true
        }
    }

    /// Why the action is refused in `state`, or nil when it is allowed: the short notice the operator sees.
    public func refusal(in state: LifecycleState) -> String? {
        if isAllowed(in: state) { return nil }
        switch self {
        case .incomingCall: return "a call can only ring while the app is active (it is \(state.rawValue))"
        case .siri: return "Siri can only start while the app is active (it is \(state.rawValue))"
        case .home: return "Home only leaves an active app (it is \(state.rawValue))"
        case .decline: return "nothing to decline: no call or Siri is up (the app is \(state.rawValue))"
        case .accept: return "nothing to accept: no call is ringing (the app is \(state.rawValue))"
        case .returnToApp: return "the app is not in the background (it is \(state.rawValue))"
        case .tap: return nil
        }
    }
}
