/// One interrupt policy of docs/design.md §1.2: a value that turns notifications into actions.
///
/// Policies keep only their own flags (`hasReturnedToForeground`, `isResumable`, …); connection state,
/// lifecycle and the publish type come in through `PolicyContext`, so nothing is tracked twice.
public protocol InterruptPolicy: Sendable, Equatable {
    static var kind: PublisherPolicyKind { get }
    /// True while the policy holds the broadcast back and may restore it (dashboard: INTERRUPTED).
    var isInterrupted: Bool { get }
    mutating func handle(_ input: PolicyInput, in context: PolicyContext) -> [PublisherAction]
}
