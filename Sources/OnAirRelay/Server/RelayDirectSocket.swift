import Glibc
import NIOCore

/// The relay's own descriptor of one accepted TCP connection, so that fan-out bytes go to the kernel with
/// one `send(2)` instead of a trip through NIO's pipeline, pending-write queue and flush (GitHub issue 31).
///
/// Why: profiled at `--audio-merge-ms 0` with 100 players, NIO's per-write path (pipeline, pending-write
/// queue, flush bookkeeping, reference counting) was about two thirds of the relay's user CPU, which is
/// what made it cost 1.5× nginx-rtmp's worker; the kernel's share was the same for both.
///
/// NIO does not publish a channel's descriptor, so it is found among this process's descriptors by the
/// connection's two addresses (a TCP socket's local and remote address name one connection) and duplicated:
/// the copy belongs to this object, is closed when the channel goes inactive (or in `deinit`), and its
/// number can never be one NIO closed and the process reused for a file. It shares the socket's
/// non-blocking status with NIO's descriptor. Confined to the relay's event loop, like its handler.
///
/// It only writes: NIO keeps reading, water marks and closing. The handler uses it only while NIO holds no
/// unsent byte of the connection, and gives NIO whatever the socket does not take (see
/// `RelayConnectionHandler+Output.swift`), so bytes stay in order and every bound of NIO's path still holds.
final class RelayDirectSocket {
    /// What one ``send(_:)`` did.
    enum Outcome: Equatable {
        /// This many bytes (maybe fewer than asked: the socket's send buffer is full).
        case sent(Int)
        /// Nothing: the socket's send buffer is full (EAGAIN).
        case wouldBlock
        /// The connection failed (reset, broken pipe …): NIO meets the same error on its next write.
        case failed(errno: Int32)
    }

    /// The duplicate's number, -1 once closed. The fan-out may keep it in a player only while the handler
    /// has that player armed, and the handler disarms every player before it closes this.
    private(set) var descriptor: Int32

    private init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    deinit {
        close()
    }

    /// A duplicate of this process's descriptor for the TCP connection `local` ↔ `remote`, or nil when none
    /// is found (or it cannot be duplicated): the caller then keeps writing through NIO.
    static func duplicate(local: SocketAddress, remote: SocketAddress) -> RelayDirectSocket? {
        guard let directory = opendir("/proc/self/fd") else { return nil }
        defer { closedir(directory) }
        let listing = dirfd(directory)
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            guard let candidate = Int32(name), candidate != listing,
                  address(of: candidate, peer: false, matches: local),
                  address(of: candidate, peer: true, matches: remote) else { continue }
            let copy = fcntl(candidate, F_DUPFD_CLOEXEC, 0)
            return copy >= 0 ? RelayDirectSocket(descriptor: copy) : nil
        }
        return nil
    }

    /// Sends what the socket takes now, without waiting; EINTR is retried. `MSG_NOSIGNAL`: a peer gone
    /// is an error result, never SIGPIPE.
    func send(_ bytes: UnsafeRawBufferPointer) -> Outcome {
        Self.send(bytes, to: descriptor)
    }

    /// ``send(_:)`` on a descriptor number taken from an open ``RelayDirectSocket`` (the fan-out's fast path).
    static func send(_ bytes: UnsafeRawBufferPointer, to descriptor: Int32) -> Outcome {
        guard descriptor >= 0 else { return .failed(errno: EBADF) }
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return .sent(0) }
        while true {
            let written = Glibc.send(descriptor, base, bytes.count, Int32(MSG_NOSIGNAL))
            if written >= 0 { return .sent(written) }
            switch errno {
            case EINTR: continue
            case EAGAIN, EWOULDBLOCK: return .wouldBlock
            case let code: return .failed(errno: code)
            }
        }
    }

    /// Closes the duplicate (NIO's own descriptor is NIO's); safe to call more than once.
    func close() {
        guard descriptor >= 0 else { return }
        _ = Glibc.close(descriptor)
        descriptor = -1
    }

    var isOpen: Bool { descriptor >= 0 }

    /// Whether `descriptor`'s local (or, with `peer`, remote) address is `expected`: family, port and IP
    /// address compared; anything that is not an IPv4 or IPv6 socket does not match.
    private static func address(of descriptor: Int32, peer: Bool, matches expected: SocketAddress) -> Bool {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let ok = withUnsafeMutablePointer(to: &storage) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                (peer ? getpeername(descriptor, $0, &length) : getsockname(descriptor, $0, &length)) == 0
            }
        }
        guard ok else { return false }
        switch expected {
        case .v4(let v4):
            guard Int32(storage.ss_family) == AF_INET else { return false }
            let found = withUnsafeBytes(of: &storage) { $0.load(as: sockaddr_in.self) }
            return found.sin_port == v4.address.sin_port && found.sin_addr.s_addr == v4.address.sin_addr.s_addr
        case .v6(let v6):
            guard Int32(storage.ss_family) == AF_INET6 else { return false }
            let found = withUnsafeBytes(of: &storage) { $0.load(as: sockaddr_in6.self) }
            var wanted = v6.address
            return found.sin6_port == wanted.sin6_port
                && withUnsafeBytes(of: found.sin6_addr) { a in withUnsafeBytes(of: &wanted.sin6_addr) { a.elementsEqual($0) } }
        case .unixDomainSocket:
            return false
        }
    }
}
