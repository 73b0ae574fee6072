import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Free TCP ports on the loopback interface, for tests that start real peers.
public enum FreePort {
    /// Binds 127.0.0.1:0, reads the port the kernel chose, and closes the socket.
    /// Another process could take the port before the caller binds it; peers are started right away.
    public static func loopback() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw PeerError.system("socket", errno) }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0 else { throw PeerError.system("bind", errno) }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        guard named == 0 else { throw PeerError.system("getsockname", errno) }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// Whether something accepts TCP connections on 127.0.0.1:`port` now.
    public static func isAccepting(_ port: Int) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        return result == 0
    }

    /// Waits until 127.0.0.1:`port` accepts connections, or throws after `timeout`.
    public static func waitUntilAccepting(_ port: Int, timeout: Duration = .seconds(10), what: String) throws {
        let deadline = ContinuousClock.now + timeout
        while !isAccepting(port) {
            if ContinuousClock.now > deadline { throw PeerError.timedOut("\(what) did not accept connections on port \(port)") }
            Thread.sleep(forTimeInterval: 0.01)
        }
    }
}
