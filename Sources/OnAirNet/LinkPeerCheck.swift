import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Whether a connection accepted by the link stage comes from this very process (issue 29 item 4).
///
/// The stage listens on loopback TCP, where any process on the machine can connect: a neighbour published
/// its own stream through it, watched the broadcast, and with its bytes blinded ABR. TCP has no peer
/// credentials (`SO_PEERCRED` is for Unix sockets), so the check is the kernel's socket table: the
/// connecting end (loopback, the peer's port, toward the stage's port) is a socket, and that socket's inode
/// must be one of this process's open descriptors. A neighbour's socket is in its own descriptor table,
/// never in ours, whatever its user.
enum LinkPeerCheck {
    /// True when the TCP socket `127.0.0.1:peerPort → 127.0.0.1:stagePort` is open in this process.
    static func isOwnProcess(peerPort: Int, stagePort: Int) -> Bool {
        guard let inode = socketInode(localPort: peerPort, remotePort: stagePort) else { return false }
        return ownSocketInodes().contains(inode)
    }

    /// The inode of the IPv4 loopback socket with these ports, from `/proc/net/tcp` (hex `ADDR:PORT`
    /// fields, the inode is the tenth column).
    static func socketInode(localPort: Int, remotePort: Int) -> UInt64? {
        guard let table = try? String(contentsOfFile: "/proc/net/tcp", encoding: .ascii) else { return nil }
        let local = String(format: "0100007F:%04X", localPort)
        let remote = String(format: "0100007F:%04X", remotePort)
        for line in table.split(separator: "\n").dropFirst() {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            guard fields.count > 9, fields[1] == local, fields[2] == remote else { continue }
            return UInt64(fields[9])
        }
        return nil
    }

    /// The inodes of every socket this process holds open (`/proc/self/fd/N → socket:[INODE]`).
    static func ownSocketInodes() -> Set<UInt64> {
        guard let descriptors = try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd") else { return [] }
        var inodes = Set<UInt64>()
        var target = [CChar](repeating: 0, count: 64)
        for name in descriptors {
            let length = readlink("/proc/self/fd/\(name)", &target, target.count - 1)
            guard length > 8 else { continue }
            let link = String(decoding: target[0..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            guard link.hasPrefix("socket:["), link.hasSuffix("]") else { continue }
            if let inode = UInt64(link.dropFirst(8).dropLast()) { inodes.insert(inode) }
        }
        return inodes
    }

    /// The peer's port of an accepted IPv4 socket.
    static func peerPort(_ descriptor: Int32) -> Int? {
        var address = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let ok = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { getpeername(descriptor, $0, &length) == 0 }
        }
        return ok ? Int(UInt16(bigEndian: address.sin_port)) : nil
    }
}
