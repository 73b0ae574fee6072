import OnAirCore

/// A point-in-time view of one relayed stream, from ``RelayServer/streams()``: for tests, the demo's
/// dashboard and `onair serve` statistics.
public struct RelayStreamSnapshot: Sendable, Equatable {
    /// One player of the stream.
    public struct Player: Sendable, Equatable {
        public var connection: Int
        public var bytesOut: UInt64
        /// Audio/video messages skipped because the player fell behind (drop to next keyframe).
        public var droppedMessages: UInt64
        /// Bytes waiting in its queue right now.
        public var queuedBytes: Int
    }

    public var name: String
    public var isPublished: Bool
    public var publishType: PublishType?
    public var bytesIn: UInt64
    public var bytesOut: UInt64
    public var players: [Player]
}
