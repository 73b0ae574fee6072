/// The simulated iOS application state (UIApplication.State) the operator's keys move through.
public enum LifecycleState: String, Sendable, Equatable, CaseIterable, Codable {
    /// In the foreground and receiving events.
    case active
    /// In the foreground but interrupted (a call is ringing, Siri is up): `willResignActive` was posted.
    case inactive
    /// Not on screen: `didEnterBackground` was posted (Home, or an accepted call).
    case background

    /// The label the dashboards show (ACTIVE / INACTIVE / BACKGROUND).
    public var label: String { rawValue.uppercased() }
}
