/// The `resume-append` policy: Red5's blog post "Dealing With Interruptions on iOS Devices"
/// (red5pro-blog-ios-interruptions.txt, PublishViewController.m, Scenarios 1–3).
///
/// An interrupt stops the broadcast but remembers it was resumable; becoming active again without going
/// to the background (decline, Siri dismissed) publishes the same name with `append`, so the recording
/// continues from the point of interruption; going to the background forgets it, and the next broadcast
/// is a new `record` session.
public struct ResumeAppendPolicy: InterruptPolicy {
    public static let kind = PublisherPolicyKind.resumeAppend

    /// The blog's `isResumable`.
    private var isResumable = false

    public init() {}

    public var isInterrupted: Bool { isResumable }

    public mutating func handle(_ input: PolicyInput, in context: PolicyContext) -> [PublisherAction] {
        guard case .notification(let notification) = input else { return [] }
        switch notification {
        case .willResignActive: return willResignActive(context)
        case .didBecomeActive: return didBecomeActive(context)
        case .didEnterBackground: return didEnterBackground(context)
        case .tap: return tap(context)
        case .willEnterForeground, .audioInterruptionBegan, .audioInterruptionEnded:
            // The blog observes none of these.
            return []
        }
    }

    /// Blog `applicationWillResignActiveNotification:`: if publishing, `isResumable = YES`; then `stop`
    /// and `preview` (stopping a stream that is not publishing is a no-op there, so we skip it).
    private mutating func willResignActive(_ context: PolicyContext) -> [PublisherAction] {
        guard context.isBroadcasting else { return [] }
        isResumable = true
        return [.stop, .preview(true)]
    }

    /// Blog `applicationDidBecomeActiveNotification:`: if resumable, not any more, and `resume:` —
    /// `showPreview:NO`, publish the same name with `R5RecordTypeAppend`.
    private mutating func didBecomeActive(_ context: PolicyContext) -> [PublisherAction] {
        guard isResumable else { return [] }
        isResumable = false
        return hidePreview(context) + [.publish(name: context.streamName, type: .append)]
    }

    /// Blog `applicationDidEnterBackgroundNotification:`: `isResumable = NO`, `stop` — which releases
    /// the stream, and with it the preview (the camera is unavailable in the background anyway).
    private mutating func didEnterBackground(_ context: PolicyContext) -> [PublisherAction] {
        isResumable = false
        return (context.isBroadcasting ? [.stop] : []) + hidePreview(context)
    }

    /// Blog `start:`: `showPreview:NO`, publish with `R5RecordTypeRecord` — a new broadcast session.
    private func tap(_ context: PolicyContext) -> [PublisherAction] {
        guard !context.isBroadcasting else { return [] }
        return hidePreview(context) + [.publish(name: context.streamName, type: Self.kind.newBroadcastType)]
    }

    /// `showPreview:NO` when the preview is showing: the published stream takes the view.
    private func hidePreview(_ context: PolicyContext) -> [PublisherAction] {
        context.previewOn ? [.preview(false)] : []
    }
}
