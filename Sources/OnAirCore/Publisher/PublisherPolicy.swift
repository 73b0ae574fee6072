/// The interrupt policy in force: one of the three machines of docs/design.md §1.2, chosen at launch
/// (`--policy`) and switchable at run time. An enum of values, so a session stays a plain value.
public enum PublisherPolicy: Sendable, Equatable {
    case tapRepublish(TapRepublishPolicy)
    case resumeAppend(ResumeAppendPolicy)
    case backgroundAudio(BackgroundAudioPolicy)

    /// A fresh policy of `kind`, with no flags set.
    public init(_ kind: PublisherPolicyKind, suspendTimeout: Duration = .seconds(10)) {
        switch kind {
        case .tapRepublish: self = .tapRepublish(TapRepublishPolicy())
        case .resumeAppend: self = .resumeAppend(ResumeAppendPolicy())
        case .backgroundAudio: self = .backgroundAudio(BackgroundAudioPolicy(suspendTimeout: suspendTimeout))
        }
    }

    public var kind: PublisherPolicyKind {
        switch self {
        case .tapRepublish: .tapRepublish
        case .resumeAppend: .resumeAppend
        case .backgroundAudio: .backgroundAudio
        }
    }

    public var isInterrupted: Bool {
        switch self {
        case .tapRepublish(let policy): policy.isInterrupted
        case .resumeAppend(let policy): policy.isInterrupted
        case .backgroundAudio(let policy): policy.isInterrupted
        }
    }

    /// A tap re-publishes (tap-republish, after "Tap to Re-Publish!"): AWAITING TAP.
    public var isTapArmed: Bool {
        if case .tapRepublish(let policy) = self { return policy.tapArmed }
        return false
    }

    public mutating func handle(_ input: PolicyInput, in context: PolicyContext) -> [PublisherAction] {
        switch self {
        case .tapRepublish(var policy):
            defer { self = .tapRepublish(policy) }
            return policy.handle(input, in: context)
        case .resumeAppend(var policy):
            defer { self = .resumeAppend(policy) }
            return policy.handle(input, in: context)
        case .backgroundAudio(var policy):
            defer { self = .backgroundAudio(policy) }
            return policy.handle(input, in: context)
        }
    }
}
