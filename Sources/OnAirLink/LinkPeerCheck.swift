import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Whether a connection accepted by the link stage comes from this very process (issue 29 item 4).
///
/// The stage listens on loopback TCP, where any process on the machine can connect: a neighbour published
/// its own stream through it, watched the broadcast, and with its bytes blinded ABR. TCP has no peer
/// credentials (`SO_PEERCRED` is for Unix sockets), so the check asks this process's own descriptors: the
/// connecting end is a socket bound to 127.0.0.1:`peerPort` and connected to the stage's port, and it must
/// be one of them. A neighbour's socket is in its own descriptor table, never in ours, whatever its user.
enum LinkPeerCheck {
    /// True when one of this process's descriptors is the TCP socket `127.0.0.1:peerPort → :stagePort`.
    static func isOwnProcess(peerPort: Int, stagePort: Int) -> Bool {
        guard let descriptors = try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd") else { return false }
        for name in descriptors {
            guard let descriptor = Int32(name), port(of: descriptor, peer: false) == peerPort else { continue }
            if port(of: descriptor, peer: true) == stagePort { return true }
        }
        return false
    }

    /// The peer's port of an accepted IPv4 socket.
    static func peerPort(_ descriptor: Int32) -> Int? {
        port(of: descriptor, peer: true)
    }

    /// The local (or, with `peer`, the remote) port of an IPv4 loopback socket; nil for anything else.
    private static func port(of descriptor: Int32, peer: Bool) -> Int? {
        var address = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let ok = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                (peer ? getpeername(descriptor, $0, &length) : getsockname(descriptor, $0, &length)) == 0
            }
        }
        guard ok, address.sin_family == sa_family_t(AF_INET), address.sin_addr.s_addr == inet_addr("127.0.0.1") else { return nil }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
