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

        /// A stable machine-readable name (`--headless` logs it as `code`).
        public var code: String {
            switch self {
            case .tooManyConnections: "too-many-connections"
            case .handshakeTimeout: "handshake-timeout"
            }
        }

        public var description: String {
            switch self {
            case .tooManyConnections(let address, let limit):
                "\(address) already has \(limit) connections open (--max-connections-per-address)"
            case .handshakeTimeout(let seconds):
                "no RTMP handshake and connect within \(Self.format(seconds)) s (--handshake-timeout)"
            }
        }

        private static func format(_ seconds: Double) -> String {
            seconds == seconds.rounded() ? String(Int(seconds)) : String(seconds)
        }
    }
}
