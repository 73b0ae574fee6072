extension StreamURL {
    /// The stream name without its `?query`: what notices (`streamName=…`), logs and recordings use, so a
    /// key passed as `?key=` never leaves the connection it authenticates.
    public var bareStreamName: String {
        String(streamName.prefix { $0 != "?" })
    }
}
