/// Open connections per client IP address, and whether one more may be admitted
/// (``RelayConfiguration/maxConnectionsPerAddress``, GitHub issue 8). A value owned by the registry on the
/// relay's event loop; every ``admit(_:)`` that returned true is matched by one ``release(_:)``.
struct RelayAddressLimiter: Sendable {
    /// Most connections per address; `nil` admits everything.
    let limit: Int?
    /// Whether loopback addresses are limited too (see ``RelayConfiguration/limitsLoopback``).
    let limitsLoopback: Bool
    /// Loopback is exempt only while fewer connections than this are open in all (``RelayConfiguration/loopbackExemptionLimit``).
    let loopbackExemptionLimit: Int?
    private(set) var open: [String: Int] = [:]
    /// Connections open from every address.
    private(set) var total = 0

    init(limit: Int?, limitsLoopback: Bool, loopbackExemptionLimit: Int? = nil) {
        self.limit = limit
        self.limitsLoopback = limitsLoopback
        self.loopbackExemptionLimit = loopbackExemptionLimit
    }

    /// Counts one more connection from `address` and returns true, or returns false (counting nothing)
    /// when the address is at the limit.
    mutating func admit(_ address: String) -> Bool {
        let count = open[address, default: 0]
        if let limit, count >= limit, !isExempt(address) { return false }
        open[address] = count + 1
        total += 1
        return true
    }

    /// Whether `address` is free of the per-address limit now: loopback, unless limited or the relay is full.
    func isExempt(_ address: String) -> Bool {
        guard !limitsLoopback, Self.isLoopback(address) else { return false }
        return loopbackExemptionLimit.map { total < $0 } ?? true
    }

    /// An admitted connection from `address` closed.
    mutating func release(_ address: String) {
        guard let count = open[address] else { return }
        open[address] = count > 1 ? count - 1 : nil
        total -= 1
    }

    /// 127.0.0.0/8, ::1, and IPv4-mapped 127.x (`::ffff:127.0.0.1`, seen on dual-stack sockets).
    static func isLoopback(_ address: String) -> Bool {
        address.hasPrefix("127.") || address == "::1" || address.lowercased().hasPrefix("::ffff:127.")
    }
}
