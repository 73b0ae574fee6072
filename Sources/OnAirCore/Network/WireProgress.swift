/// What the RTMP client's socket has taken so far, sampled by the owner once a tick for the send-stall
/// watchdog (`PublisherEvent.wire`).
public struct WireProgress: Sendable, Equatable {
    /// Bytes the socket accepted since the connection opened (counted when each write completes).
    public var bytesWritten: UInt64
    /// A write is waiting for the socket.
    public var writePending: Bool

    public init(bytesWritten: UInt64, writePending: Bool) {
        self.bytesWritten = bytesWritten
        self.writePending = writePending
    }
}
