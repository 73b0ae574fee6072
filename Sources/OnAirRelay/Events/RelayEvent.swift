import OnAirCore

/// What an embedded relay reports on ``RelayServer/events``: connections, publishes, plays, recordings,
/// byte counts and drops. `onair serve` prints them (JSON Lines with `--headless`); tests read them.
public enum RelayEvent: Sendable, Equatable {
    /// Why a publisher stopped being the stream's source.
    public enum UnpublishReason: String, Sendable, Equatable {
        /// `FCUnpublish`, `deleteStream` or `closeStream` (RTMP spec §7.2.2.3).
        case unpublished
        /// The socket closed or failed without an unpublish.
        case disconnected
        /// Nothing arrived for ``RelayConfiguration/idleTimeout`` while the socket stayed open.
        case idle
        /// The relay is stopping.
        case serverStopping = "server-stopping"
    }

    case listening(host: String, port: Int)
    case connectionOpened(connection: Int, remote: String)
    case connectionClosed(connection: Int, bytesIn: UInt64, bytesOut: UInt64)
    /// A connection closed by a limit (per-address connections, handshake timeout, the per-connection limits
    /// of ``ConnectionRejection``). One refused on accept
    /// for the per-address limit gets no ``connectionOpened(connection:remote:)``/``connectionClosed(connection:bytesIn:bytesOut:)``.
    case connectionRejected(connection: Int, remote: String, reason: ConnectionRejection)
    case publishStarted(stream: String, type: PublishType, connection: Int, recording: String?)
    /// A publish answered with an error status (bad name, taken name, wrong key).
    case publishRefused(stream: String, connection: Int, code: String, reason: String)
    case publishStopped(stream: String, connection: Int, reason: UnpublishReason, bytesIn: UInt64)
    /// `waiting` is true when nothing is published under that name yet: the player waits (like nginx-rtmp).
    case playStarted(stream: String, connection: Int, waiting: Bool)
    case playRefused(stream: String, connection: Int, reason: String)
    case playStopped(stream: String, connection: Int, bytesOut: UInt64, droppedMessages: UInt64)
    /// A player's queue overflowed: it skips to the next keyframe. `droppedMessages` is its running total.
    case playerDropping(stream: String, connection: Int, droppedMessages: UInt64)
    /// Periodic and final byte counts of one stream.
    case streamStats(stream: String, bytesIn: UInt64, bytesOut: UInt64, players: Int, droppedMessages: UInt64)
    case recordingStarted(stream: String, path: String, append: Bool)
    case recordingStopped(stream: String, path: String, bytes: UInt64)
    case recordingFailed(stream: String, path: String, reason: String)
    /// `accept` failed (out of file descriptors or memory): the relay stops accepting for `retryMilliseconds`
    /// and tries again, reported once until a connection is accepted again.
    case acceptPaused(reason: String, retryMilliseconds: Int, openConnections: Int)
    /// A peer broke the protocol; its connection is closed.
    case protocolError(connection: Int, reason: String)
    /// A peer broke the RTMP spec in a way the relay tolerates, as ffmpeg and librtmp do (for example a
    /// format-1 first chunk header on a fresh chunk stream), reported once per connection, or sent a message
    /// type the relay does not handle, reported once per type and connection.
    case peerWarning(connection: Int, reason: String)
    case stopped
    /// The operator interrupted the relay on purpose (``RelayServer/interrupt(_:)``, issue 27): `action`
    /// is `restart`, `busy`, `stall` or `move`, and `ended` says its window is over.
    case serverInterruption(action: String, milliseconds: Int, ended: Bool)
}
