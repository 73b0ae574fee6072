import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The socket calls of the link impairment stage: a loopback listener, a connection to the real target,
/// buffer sizes, non-blocking mode and close-as-reset.
enum LinkSocket {
    enum Error: Swift.Error, CustomStringConvertible {
        case system(String, Int32)
        case unresolved(String)

        var description: String {
            switch self {
            case let .system(call, code): "\(call) failed: \(String(cString: strerror(code)))"
            case let .unresolved(host): "cannot resolve \(host)"
            }
        }
    }

    /// Listens on 127.0.0.1:`port` (0 = any free port); returns the descriptor and the bound port.
    static func listen(port: Int, receiveBuffer: Int) throws -> (Int32, Int) {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Error.system("socket", errno) }
        var yes: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        // Before listen, so accepted sockets inherit it and the advertised window starts small.
        setBufferSize(fd, SO_RCVBUF, receiveBuffer)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(clamping: port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
        }
        guard bound, Glibc.listen(fd, 16) == 0 else {
            let code = errno
            close(fd)
            throw Error.system("bind/listen 127.0.0.1:\(port)", code)
        }
        return (fd, Int(UInt16(bigEndian: address.sin_port)))
    }

    /// A blocking connect to `host:port` (IPv4 or IPv6, each address in turn); nil when none answers.
    static func connect(host: String, port: Int) -> Int32? {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_family = AF_UNSPEC
        var list: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, String(port), &hints, &list) == 0, let first = list else { return nil }
        defer { freeaddrinfo(list) }
        var candidate: UnsafeMutablePointer<addrinfo>? = first
        while let info = candidate {
            candidate = info.pointee.ai_next
            let fd = socket(info.pointee.ai_family, info.pointee.ai_socktype, info.pointee.ai_protocol)
            guard fd >= 0 else { continue }
            if Glibc.connect(fd, info.pointee.ai_addr, info.pointee.ai_addrlen) == 0 { return fd }
            close(fd)
        }
        return nil
    }

    static func setBufferSize(_ fd: Int32, _ option: Int32, _ bytes: Int) {
        var value = Int32(clamping: bytes)
        setsockopt(fd, SOL_SOCKET, option, &value, socklen_t(MemoryLayout<Int32>.size))
    }

    /// Writes wait (EAGAIN, no POLLOUT) while `bytes` or more are queued and not yet sent.
    static func setUnsentLimit(_ fd: Int32, _ bytes: Int) {
        var value = Int32(clamping: bytes)
        setsockopt(fd, Int32(IPPROTO_TCP), TCP_NOTSENT_LOWAT, &value, socklen_t(MemoryLayout<Int32>.size))
    }

    static func setNonBlocking(_ fd: Int32) {
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
    }

    /// The next `close` sends RST instead of FIN.
    static func setResetOnClose(_ fd: Int32) {
        var linger = Glibc.linger(l_onoff: 1, l_linger: 0)
        setsockopt(fd, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<Glibc.linger>.size))
    }
}
