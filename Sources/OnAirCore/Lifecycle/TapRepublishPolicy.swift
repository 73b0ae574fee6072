/// The `tap-republish` policy: Red5 Pro's telephony-interrupt testbed
/// (red5pro-publish-subscribe-telephony-interrupt.md, PublishTelephonyInterruptTest.swift).
///
/// Video pauses and subscribers are told the moment the app resigns active; coming back through the
/// foreground (Home, or an accepted call) resumes the same stream; becoming active *without* passing
/// through the foreground (a declined call, a dismissed Siri) means the media devices were taken, so the
/// stream is stopped and a tap publishes it again as `live`.
public struct TapRepublishPolicy: InterruptPolicy {
    public static let kind = PublisherPolicyKind.tapRepublish

    /// The seed's `hasReturnedToForeground`.
    private var hasReturnedToForeground = false
    /// The seed's `tap != nil`: the recognizer is added when the app resigns active.
    private var recognizerAdded = false
    /// The recognizer was announced with "Tap to Re-Publish!": only then does the operator know a tap
    /// re-publishes, so only then is the tap armed on the dashboard (AWAITING TAP). The one place this
    /// fact is kept: the session's `state.tapArmed` is read from here.
    public private(set) var tapArmed = false

    public init() {}

    public var isInterrupted: Bool { false }

    public mutating func handle(_ input: PolicyInput, in context: PolicyContext) -> [PublisherAction] {
        guard case .notification(let notification) = input else { return [] }
        switch notification {
        case .willResignActive: return willResignActive(context)
        case .willEnterForeground: return willEnterForeground(context)
        case .didBecomeActive: return didBecomeActive(context)
        case .tap: return tap(context)
        case .didEnterBackground, .audioInterruptionBegan, .audioInterruptionEnded:
            // The testbed observes none of these.
            return []
        }
    }

    /// Seed `willResignActive(_:)`: `pauseVideo = true`, send `publisherBackground`, add the tap recognizer
    /// (armed on screen once the toast announces it).
    private mutating func willResignActive(_ context: PolicyContext) -> [PublisherAction] {
        recognizerAdded = true
        guard context.isBroadcasting else { return [] }
        return [.pauseVideo(true), .send(handler: "publisherBackground", parameter: context.streamParameter)]
    }

    /// Seed `willEnterForeground(_:)`: `pauseVideo = false`, send `publisherForeground`,
    /// `hasReturnedToForeground = true`, remove the tap recognizer.
    private mutating func willEnterForeground(_ context: PolicyContext) -> [PublisherAction] {
        var actions: [PublisherAction] = []
        if context.isBroadcasting {
            actions += [.pauseVideo(false), .send(handler: "publisherForeground", parameter: context.streamParameter)]
        }
        hasReturnedToForeground = true
        recognizerAdded = false
        if tapArmed {
            tapArmed = false
            actions.append(.disarmTap)
        }
        return actions
    }

    /// Seed `didBecomeActive(_:)`: if publishing and not back through the foreground, send
    /// `publisherInterrupt` and stop; clear the flag; toast "Tap to Re-Publish!" while the tap is armed.
    ///
    /// The seed tests `publishStream != nil`; a stream it already stopped stays non-nil there, and a second
    /// interrupt would stop it again. We test that a broadcast is under way, which is what it means.
    private mutating func didBecomeActive(_ context: PolicyContext) -> [PublisherAction] {
        var actions: [PublisherAction] = []
        if context.isBroadcasting && !hasReturnedToForeground {
            actions += [.send(handler: "publisherInterrupt", parameter: context.streamParameter), .stop]
        }
        hasReturnedToForeground = false
        if recognizerAdded {
            actions.append(.toast("Tap to Re-Publish!"))
            if !tapArmed {
                tapArmed = true
                actions.append(.armTap)
            }
        }
        return actions
    }

    /// Seed `handleSingleTap` → `republish()`: a new `R5Connection`, the same name, `R5RecordTypeLive`.
    /// The new stream in the seed starts with `pauseVideo` false, so we unpause explicitly (our flag is the
    /// engine's and outlives connections). Unarmed, a tap starts a broadcast when none is under way.
    private mutating func tap(_ context: PolicyContext) -> [PublisherAction] {
        if tapArmed {
            tapArmed = false
            recognizerAdded = false
            return [.disarmTap, .pauseVideo(false), .publish(name: context.streamName, type: .live)]
        }
        guard !context.isBroadcasting else { return [] }
        return [.publish(name: context.streamName, type: Self.kind.newBroadcastType)]
    }
}
