/// The `background-audio` policy: keep the session in the background with audio only
/// (vonage-ios-background-state.txt; red5pro-subscribe-background.md, "Permissions").
///
/// With the `audio` background mode an app stays running in the background while its audio session is
/// active, but it cannot use the camera there ("What OpenTok can (and cannot) do"): video pauses, audio
/// flows, and the camera resumes — with a keyframe, so subscribers can decode at once — on the way back.
/// A phone call takes the audio device and suspends the app "regardless of whether there is an active
/// audio session" ("Losing Control"): nothing is sent. Suspended "for a long period of time, the
/// connection … will end"; here that period is the suspension timeout, after which the connection is
/// dropped so subscribers see the publisher go away, and once the call ends the publisher cleans up and
/// reconnects ("Clients may reconnect as soon as the disconnect cleanup is processed").
public struct BackgroundAudioPolicy: InterruptPolicy {
    public static let kind = PublisherPolicyKind.backgroundAudio

    private enum Phase: Sendable, Equatable {
        case running
        /// A call holds the audio device: nothing is sent; the suspension timer runs.
        case suspended
        /// Suspended past the timeout: the connection was dropped; reconnect when the call ends.
        case droppedWhileSuspended
    }

    /// How long a call may suspend the app before its connection is dropped (`--suspend-timeout`).
    public let suspendTimeout: Duration
    private var phase = Phase.running

    public init(suspendTimeout: Duration = .seconds(10)) {
        self.suspendTimeout = suspendTimeout
    }

    public var isInterrupted: Bool { phase != .running }

    public mutating func handle(_ input: PolicyInput, in context: PolicyContext) -> [PublisherAction] {
        switch input {
        case .timerFired(.suspension): return suspensionExpired()
        case .timerFired: return []
        case .notification(let notification):
            switch notification {
            case .didEnterBackground:
                // The camera is unavailable in the background; audio keeps flowing.
                return phase == .running && context.isBroadcasting ? [.pauseVideo(true)] : []
            case .willEnterForeground:
                // "An app can resume using the camera as soon as the app returns to the active state."
                return phase == .running && context.isBroadcasting ? [.pauseVideo(false), .requestKeyframe] : []
            case .audioInterruptionBegan: return callBegan(context)
            case .audioInterruptionEnded: return callEnded(context)
            case .tap:
                guard phase == .running, !context.isBroadcasting else { return [] }
                return [.publish(name: context.streamName, type: Self.kind.newBroadcastType)]
            case .willResignActive, .didBecomeActive:
                // Still in the foreground with the camera: nothing to change.
                return []
            }
        }
    }

    /// The call suspends the app: pause both, start the suspension timer.
    private mutating func callBegan(_ context: PolicyContext) -> [PublisherAction] {
        guard phase == .running, context.isBroadcasting else { return [] }
        phase = .suspended
        return [.pauseVideo(true), .pauseAudio(true), .scheduleTimer(.suspension, after: suspendTimeout)]
    }

    /// Suspended too long: the connection ends (subscribers get UnpublishNotify).
    private mutating func suspensionExpired() -> [PublisherAction] {
        guard phase == .suspended else { return [] }
        phase = .droppedWhileSuspended
        return [.dropConnection]
    }

    /// The call gave the audio device back. Within the timeout the same stream resumes; after it, the
    /// publisher publishes again on a new connection. Video resumes only if the app is not in the
    /// background (an accepted call returns through `willEnterForeground`, which resumes it then).
    private mutating func callEnded(_ context: PolicyContext) -> [PublisherAction] {
        let resumeVideo: [PublisherAction] = context.lifecycle == .background ? [] : [.pauseVideo(false), .requestKeyframe]
        switch phase {
        case .running:
            return []
        case .suspended:
            phase = .running
            return [.cancelTimer(.suspension), .pauseAudio(false)] + resumeVideo
        case .droppedWhileSuspended:
            phase = .running
            return [.pauseAudio(false)] + resumeVideo
                + [.publish(name: context.streamName, type: context.republishType)]
        }
    }
}
