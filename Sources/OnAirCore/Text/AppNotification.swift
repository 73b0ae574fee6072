/// What the simulated phone tells the app, in the order iOS posts it (docs/design.md §1.1).
///
/// The four `UIApplication` notifications are the ones the seeds observe (PublishTelephonyInterruptTest's
/// `willResignActive` / `willEnterForeground` / `didBecomeActive`, the blog's PublishViewController.m
/// `applicationDidEnterBackgroundNotification:`). The two audio-session cases model
/// `AVAudioSession.interruptionNotification` with type `.began` / `.ended`: vonage-ios-background-state.txt
/// ("Losing Control") says an incoming call takes the audio device and suspends an app that keeps audio
/// running in the background, so the background-audio policy needs them. `tap` is the screen gesture.
public enum AppNotification: String, Sendable, Equatable, CaseIterable, Codable {
    case willResignActive
    case didEnterBackground
    case willEnterForeground
    case didBecomeActive
    /// `AVAudioSession.interruptionNotification`, type `.began`: a call took the audio device.
    case audioInterruptionBegan
    /// `AVAudioSession.interruptionNotification`, type `.ended`: the call gave the audio device back.
    case audioInterruptionEnded
    /// A tap on the screen (a `UITapGestureRecognizer` in the seeds).
    case tap

    /// The application state once the notification has been posted, or nil when it does not move it.
    ///
    /// iOS reports `.inactive` between `willEnterForeground` and `didBecomeActive`, so a policy that
    /// looks at the state while handling `willEnterForeground` sees the app on its way back, not yet active.
    public var resultingState: LifecycleState? {
        switch self {
        case .willResignActive, .willEnterForeground: .inactive
        case .didEnterBackground: .background
        case .didBecomeActive: .active
        case .audioInterruptionBegan, .audioInterruptionEnded, .tap: nil
        }
    }
}
