extension PublisherPolicyKind {
    /// The publish type of a broadcast started by a tap or the start control: `record` under
    /// resume-append (the blog's `start:` uses `R5RecordTypeRecord`), `live` otherwise (the testbed).
    public var newBroadcastType: PublishType {
        self == .resumeAppend ? .record : .live
    }
}
