/// The timers the subscriber asks its owner to run.
public enum SubscriberTimer: String, Sendable, Equatable, Hashable, CaseIterable, Codable {
    /// The wait before stopping and playing again (`--reconnect-delay`, 2 s in the seed).
    case reconnect
}
