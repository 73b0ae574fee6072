/// Open connections per client IP address, and whether one more may be admitted
/// (``RelayConfiguration/maxConnectionsPerAddress``, GitHub issue 8). A value owned by the registry on the
/// relay's event loop; every ``admit(_:)`` that returned true is matched by one ``release(_:)``.
struct RelayAddressLimiter: Sendable {
    /// Most connections per address; `nil` admits everything.
    let limit: Int?
    /// Whether loopback addresses are limited too (see ``RelayConfiguration/limitsLoopback``).
    let limitsLoopback: Bool
    private(set) var open: [String: Int] = [:]

    init(limit: Int?, limitsLoopback: Bool) {
        self.limit = limit
        self.limitsLoopback = limitsLoopback
    }

    /// Counts one more connection from `address` and returns true, or returns false (counting nothing)
    /// when the address is at the limit.
    mutating func admit(_ address: String) -> Bool {
        let count = open[address, default: 0]
        if let limit, count >= limit, limitsLoopback || !Self.isLoopback(address) { return false }
        open[address] = count + 1
        return true
    }

    /// An admitted connection from `address` closed.
    mutating func release(_ address: String) {
        guard let count = open[address] else { return }
        open[address] = count > 1 ? count - 1 : nil
    }

    /// 127.0.0.0/8, ::1, and IPv4-mapped 127.x (`::ffff:127.0.0.1`, seen on dual-stack sockets).
    static func isLoopback(_ address: String) -> Bool {
        address.hasPrefix("127.") || address == "::1" || address.lowercased().hasPrefix("::ffff:127.")
    }
}
