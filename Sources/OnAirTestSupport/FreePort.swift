import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Free TCP ports on the loopback interface, for tests that start real peers.
public enum FreePort {
    /// A port on 127.0.0.1 that nothing uses now, chosen *below* the kernel's ephemeral range.
    ///
    /// Binding port 0 would hand out an ephemeral port, and under a parallel test run the kernel gives
    /// the same range to other tests' outgoing connections: one of them could take the port before the
    /// peer binds it (seen here: "port is in use"). Ports below the range are never assigned implicitly;
    /// they are drawn at random and checked by binding, so two tests rarely meet and never silently.
    public static func loopback() throws -> Int {
        let ephemeralStart = ephemeralRangeStart()
        let low = max(1024, ephemeralStart - 12_000)
        for _ in 0..<100 {
            let candidate = Int.random(in: low..<ephemeralStart)
            if canBind(candidate) { return candidate }
        }
        throw PeerError.failed("no free loopback port below \(ephemeralStart) after 100 tries")
    }

    /// The first port of `net.ipv4.ip_local_port_range` (32768 when it cannot be read).
    static func ephemeralRangeStart() -> Int {
        guard let text = try? String(contentsOfFile: "/proc/sys/net/ipv4/ip_local_port_range", encoding: .utf8),
              let first = text.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" }).first,
              let start = Int(first), start > 2048
        else { return 32768 }
        return start
    }

    /// Whether 127.0.0.1:`port` can be bound (and so is free) right now.
    static func canBind(_ port: Int) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        } == 0
    }

    /// Whether something accepts TCP connections on 127.0.0.1:`port` now.
    public static func isAccepting(_ port: Int) -> Bool {
        guard let fd = connectLoopback(port) else { return false }
        close(fd)
        return true
    }

    /// A blocking TCP socket connected to 127.0.0.1:`port`, for a test to talk through; nil if refused.
    public static func connectLoopback(_ port: Int) -> Int32? {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return nil }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard result == 0 else {
            close(fd)
            return nil
        }
        return fd
    }

    /// Waits until 127.0.0.1:`port` accepts connections, or throws after `timeout` (a safety net: a process
    /// starts in well under a second idle; it was 10 s, now 60 s for a loaded machine, issue 24).
    public static func waitUntilAccepting(_ port: Int, timeout: Duration = .seconds(60), what: String) throws {
        let deadline = ContinuousClock.now + timeout
        while !isAccepting(port) {
            if ContinuousClock.now > deadline { throw PeerError.timedOut("\(what) did not accept connections on port \(port)") }
            Thread.sleep(forTimeInterval: 0.01)
        }
    }

    /// Whether a socket listens on `port` (any address), read from the kernel's table without connecting:
    /// for a peer that takes only one connection (`ffmpeg -listen 1`), which a probe would use up.
    public static func isListening(_ port: Int) -> Bool {
        let hexPort = String(format: ":%04X ", port)
        return ["/proc/net/tcp", "/proc/net/tcp6"].contains { table in
            guard let text = try? String(contentsOfFile: table, encoding: .utf8) else { return false }
            // Columns: sl local_address rem_address st …; state 0A is LISTEN.
            return text.split(separator: "\n").dropFirst().contains { line in
                let columns = line.split(separator: " ")
                return columns.count > 3 && columns[1].hasSuffix(hexPort.dropLast()) && columns[3] == "0A"
            }
        }
    }

    /// Waits until something listens on `port` (``isListening(_:)``), or throws after `timeout` (a safety net).
    public static func waitUntilListening(_ port: Int, timeout: Duration = .seconds(60), what: String) throws {
        let deadline = ContinuousClock.now + timeout
        while !isListening(port) {
            if ContinuousClock.now > deadline { throw PeerError.timedOut("\(what) did not listen on port \(port)") }
            Thread.sleep(forTimeInterval: 0.01)
        }
    }
}
