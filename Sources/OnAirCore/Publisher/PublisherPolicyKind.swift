/// The publisher's interrupt policies of docs/design.md §1.2, selectable with `--policy` and at run time (`p`).
public enum PublisherPolicyKind: String, Sendable, Equatable, CaseIterable, Codable {
    /// Red5 Pro's telephony-interrupt testbed: pause video, notify subscribers, tap to re-publish `live`.
    case tapRepublish = "tap-republish"
    /// Red5 Pro's blog, Scenarios 1–3: stop on interrupt, resume with publish type `append` on decline.
    case resumeAppend = "resume-append"
    /// Vonage's background state: keep the session with audio only; a long call suspension drops it.
    case backgroundAudio = "background-audio"

    /// The policy after this one, for the operator's "next policy" key.
    public var next: PublisherPolicyKind {
        let all = Self.allCases
        return all[(all.firstIndex(of: self)! + 1) % all.count]
    }
}
