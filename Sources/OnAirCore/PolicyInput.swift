/// What a publisher policy reacts to: the simulated notifications, and the timers it scheduled.
public enum PolicyInput: Sendable, Equatable {
    case notification(AppNotification)
    case timerFired(PublisherTimer)
}

/// One interrupt policy of DESIGN.md §1.2: a value that turns notifications into actions.
///
/// Policies keep only their own flags (`hasReturnedToForeground`, `isResumable`, …); connection state,
/// lifecycle and the publish type come in through `PolicyContext`, so nothing is tracked twice.
public protocol InterruptPolicy: Sendable, Equatable {
    static var kind: PublisherPolicyKind { get }
    /// True while the policy holds the broadcast back and may restore it (dashboard: INTERRUPTED).
    var isInterrupted: Bool { get }
    /// True while a tap re-publishes.
    var isTapArmed: Bool { get }
    mutating func handle(_ input: PolicyInput, in context: PolicyContext) -> [PublisherAction]
}

extension PublisherPolicyKind {
    /// The publish type of a broadcast started by a tap or the start control: `record` under
    /// resume-append (the blog's `start:` uses `R5RecordTypeRecord`), `live` otherwise (the testbed).
    public var newBroadcastType: PublishType {
        self == .resumeAppend ? .record : .live
    }
}
