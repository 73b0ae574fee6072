extension RelayEvent {
    /// Why the relay closed a connection before it could publish or play (GitHub issue 8): limits that keep
    /// one client — a reconnect loop gone wrong, a port scanner, a flood — from using up the relay.
    public enum ConnectionRejection: Sendable, Equatable, CustomStringConvertible {
        /// The client's address already had `limit` connections open
        /// (``RelayConfiguration/maxConnectionsPerAddress``); this one was closed on accept.
        case tooManyConnections(address: String, limit: Int)
        /// The client did not finish the RTMP handshake and `connect` within
        /// ``RelayConfiguration/handshakeTimeout``.
        case handshakeTimeout(seconds: Double)
        /// More `createStream` than ``RelayConfiguration/maxMessageStreamsPerConnection``.
        case tooManyMessageStreams(limit: Int)
        /// More concurrent plays than ``RelayConfiguration/maxPlaysPerConnection``, or a flood of `play` commands.
        case tooManyPlays(limit: Int)
        /// Protocol answers the peer does not read passed ``RelayConfiguration/maxQueuedControlBytes``.
        case controlQueueFull(bytes: Int, limit: Int)
        /// Commands and pings faster than ``RelayConfiguration/requestRate`` beyond its burst.
        case requestFlood(perSecond: Double)
        /// Connected, but neither published nor played within ``RelayConfiguration/connectIdleTimeout``.
        case idleAfterConnect(seconds: Double)
        /// Unfinished messages across chunk streams announced more than ``RelayConfiguration/maxPartialMessageBytes``.
        case partialMessagesTooLarge(bytes: Int, limit: Int)
        /// A message was still incomplete ``RelayConfiguration/incompleteMessageTimeout`` after it started.
        case incompleteMessage(seconds: Double)

        /// A stable machine-readable name (`--headless` logs it as `code`).
        public var code: String {
            switch self {
            case .tooManyConnections: "too-many-connections"
            case .handshakeTimeout: "handshake-timeout"
            case .tooManyMessageStreams: "too-many-streams"
            case .tooManyPlays: "too-many-plays"
            case .controlQueueFull: "control-queue-full"
            case .requestFlood: "request-flood"
            case .idleAfterConnect: "idle-after-connect"
            case .partialMessagesTooLarge: "partial-messages-too-large"
            case .incompleteMessage: "incomplete-message"
            }
        }

        public var description: String {
            switch self {
            case .tooManyConnections(let address, let limit):
                "\(address) already has \(limit) connections open (--max-connections-per-address)"
            case .handshakeTimeout(let seconds):
                "no RTMP handshake and connect within \(Self.format(seconds)) s (--handshake-timeout)"
            case .tooManyMessageStreams(let limit):
                "asked for more than \(limit) message streams (createStream) on one connection"
            case .tooManyPlays(let limit):
                "asked to play more than \(limit) streams at once, or sent a flood of play commands, on one connection"
            case .controlQueueFull(let bytes, let limit):
                "\(bytes) bytes of protocol answers unread, over the \(limit)-byte limit (a ping or command flood?)"
            case .requestFlood(let rate):
                "sent commands or pings faster than \(Self.format(rate)) per second (a flood)"
            case .idleAfterConnect(let seconds):
                "connected but neither published nor played for \(Self.format(seconds)) s (--connect-idle-timeout)"
            case .partialMessagesTooLarge(let bytes, let limit):
                "\(bytes) bytes of unfinished messages across chunk streams, over the \(limit)-byte limit"
            case .incompleteMessage(let seconds):
                "a message was still incomplete \(Self.format(seconds)) s after it started"
            }
        }

        static func format(_ seconds: Double) -> String {
            seconds == seconds.rounded() ? String(Int(seconds)) : String(seconds)
        }
    }
}
