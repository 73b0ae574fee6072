import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// A TCP proxy on a free loopback port that forwards to another loopback port and holds the upstream
/// direction (client → target, e.g. publisher → server) to a fixed rate: a slow uplink inside a test.
///
/// The link must be slow where the client can feel it. The proxy reads from the client only as fast as the
/// rate allows, and its sockets have small kernel buffers (`SO_RCVBUF`/`SO_SNDBUF`), so the client's own
/// socket fills and its writes wait, as over a real slow uplink — instead of the kernel absorbing megabytes
/// at loopback speed and hiding the throttle. The other direction (server → client: acknowledgements,
/// status) passes unthrottled. Plain POSIX sockets and `poll`, on threads of its own (one accepting, one
/// per connection), so it needs no event loop and never runs on Swift's cooperative pool.
public final class ThrottledProxy: Sendable {
    /// The port clients connect to (127.0.0.1).
    public let port: Int
    public let targetPort: Int
    public let upstreamBytesPerSecond: Int
    private let shared: Shared

    /// Starts listening on a free loopback port and forwarding every connection to 127.0.0.1:`targetPort`,
    /// client → target at most `upstreamBytesPerSecond` (a burst of at most a tenth of a second).
    /// `socketBufferBytes` is asked of the kernel for the proxy's receive and send buffers.
    public init(targetPort: Int, upstreamBytesPerSecond: Int, socketBufferBytes: Int = 16 << 10) throws {
        precondition(upstreamBytesPerSecond > 0, "a throttle needs a positive rate")
        self.targetPort = targetPort
        self.upstreamBytesPerSecond = upstreamBytesPerSecond
        let (port, listener) = try Self.listenOnFreePort(receiveBuffer: socketBufferBytes)
        self.port = port
        shared = try Shared(listener: listener, targetPort: targetPort, rate: upstreamBytesPerSecond, socketBufferBytes: socketBufferBytes)
        shared.startAccepting()
    }

    deinit { shared.stop() }

    /// Bytes forwarded client → target so far.
    public var upstreamBytes: Int { shared.counters.withLock { $0.upstream } }
    /// Bytes forwarded target → client so far.
    public var downstreamBytes: Int { shared.counters.withLock { $0.downstream } }
    /// Connections accepted so far.
    public var connections: Int { shared.counters.withLock { $0.connections } }

    /// While true, nothing more is read from clients: a link that accepts nothing (the client's socket
    /// fills and its writes wait), as when an uplink goes down without a reset.
    public func hold(_ holding: Bool) { shared.holding.store(holding, ordering: .releasing) }

    /// Closes every connection and the listener, and waits for the proxy's threads to end.
    public func stop() { shared.stop() }

    // MARK: - Sockets

    /// A free port is only free until someone binds it: a few tries, as tests run in parallel.
    private static func listenOnFreePort(receiveBuffer: Int) throws -> (port: Int, listener: Int32) {
        var lastError = PeerError.failed("no free loopback port for the proxy")
        for _ in 0..<10 {
            let candidate = try FreePort.loopback()
            do {
                return (candidate, try listen(on: candidate, receiveBuffer: receiveBuffer))
            } catch let error as PeerError {
                lastError = error
            }
        }
        throw lastError
    }

    private static func listen(on port: Int, receiveBuffer: Int) throws -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw PeerError.system("socket", errno) }
        var yes: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        // Set before listen so accepted sockets inherit it and the advertised window starts small.
        setBufferSize(fd, SO_RCVBUF, receiveBuffer)
        var address = loopbackAddress(port: port)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, Glibc.listen(fd, 16) == 0 else {
            let code = errno
            close(fd)
            throw PeerError.system("bind/listen 127.0.0.1:\(port)", code)
        }
        return fd
    }

    static func connectToTarget(port: Int, sendBuffer: Int) -> Int32? {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return nil }
        setBufferSize(fd, SO_SNDBUF, sendBuffer)
        var address = loopbackAddress(port: port)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            close(fd)
            return nil
        }
        return fd
    }

    static func setBufferSize(_ fd: Int32, _ option: Int32, _ bytes: Int) {
        var value = Int32(bytes)
        setsockopt(fd, SOL_SOCKET, option, &value, socklen_t(MemoryLayout<Int32>.size))
    }

    private static func loopbackAddress(port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return address
    }
}

extension ThrottledProxy {
    struct Counters {
        var upstream = 0
        var downstream = 0
        var connections = 0
    }

    /// What the threads share; kept apart from `ThrottledProxy` so that the threads do not keep the proxy
    /// alive and a test that forgets `stop()` still ends them when the proxy goes away.
    final class Shared: Sendable {
        let listener: Int32
        let targetPort: Int
        let rate: Int
        let socketBufferBytes: Int
        /// Becomes readable (and stays so, it is never read) when the proxy stops: wakes every `poll`.
        let wakeRead: Int32
        let wakeWrite: Int32
        let counters = Mutex(Counters())
        private let stopping = Atomic<Bool>(false)
        /// `ThrottledProxy.hold(_:)`: read nothing from clients while set.
        let holding = Atomic<Bool>(false)
        /// Descriptors in use, shut down on stop so a blocked `send` returns.
        private let openDescriptors = Mutex<Set<Int32>>([])
        private let threads = DispatchGroup()

        init(listener: Int32, targetPort: Int, rate: Int, socketBufferBytes: Int) throws {
            var pipeEnds: [Int32] = [0, 0]
            guard pipe(&pipeEnds) == 0 else {
                close(listener)
                throw PeerError.system("pipe", errno)
            }
            self.listener = listener
            self.targetPort = targetPort
            self.rate = rate
            self.socketBufferBytes = socketBufferBytes
            wakeRead = pipeEnds[0]
            wakeWrite = pipeEnds[1]
        }

        func startAccepting() {
            threads.enter()
            let thread = Thread { [self] in
                acceptLoop()
                threads.leave()
            }
            thread.name = "onair.test.proxy.accept"
            thread.start()
        }

        func stop() {
            guard !stopping.exchange(true, ordering: .acquiringAndReleasing) else { return }
            var byte: UInt8 = 1
            _ = write(wakeWrite, &byte, 1)
            openDescriptors.withLock { $0.forEach { shutdown($0, Int32(SHUT_RDWR)) } }
            _ = threads.wait(timeout: .now() + 5)
            close(listener)
            close(wakeRead)
            close(wakeWrite)
        }

        private func acceptLoop() {
            while !stopping.load(ordering: .acquiring) {
                var fds = [pollfd(fd: listener, events: Int16(POLLIN), revents: 0), pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0)]
                guard poll(&fds, 2, -1) >= 0 || errno == EINTR else { return }
                if fds[1].revents != 0 { return }
                guard fds[0].revents & Int16(POLLIN) != 0 else { continue }
                let client = accept(listener, nil, nil)
                guard client >= 0 else { continue }
                guard let server = ThrottledProxy.connectToTarget(port: targetPort, sendBuffer: socketBufferBytes) else {
                    close(client)
                    continue
                }
                ThrottledProxy.setBufferSize(client, SO_RCVBUF, socketBufferBytes)
                counters.withLock { $0.connections += 1 }
                guard track(client, server) else { return }
                threads.enter()
                let thread = Thread { [self] in
                    forward(client: client, server: server)
                    openDescriptors.withLock { $0.subtract([client, server]) }
                    close(client)
                    close(server)
                    threads.leave()
                }
                thread.name = "onair.test.proxy.link"
                thread.start()
            }
        }

        /// Registers a connection's descriptors; false (and both closed) if the proxy is stopping.
        private func track(_ client: Int32, _ server: Int32) -> Bool {
            let tracked = openDescriptors.withLock { descriptors -> Bool in
                guard !stopping.load(ordering: .acquiring) else { return false }
                descriptors.formUnion([client, server])
                return true
            }
            if !tracked {
                close(client)
                close(server)
            }
            return tracked
        }

        /// Moves bytes both ways until either side closes or the proxy stops; client → server within the rate.
        private func forward(client: Int32, server: Int32) {
            var bucket = TokenBucket(rate: rate)
            var buffer = [UInt8](repeating: 0, count: 16 << 10)
            while !stopping.load(ordering: .acquiring) {
                let held = holding.load(ordering: .acquiring)
            let allowance = held ? 0 : bucket.available(now: ContinuousClock.now)
                // A client not allowed to send now is left out of the poll (a negative fd is ignored), so
                // its pending data and even its hang-up wait for the next tokens instead of spinning.
                var fds = [
                    pollfd(fd: allowance > 0 ? client : -1, events: Int16(POLLIN), revents: 0),
                    pollfd(fd: server, events: Int16(POLLIN), revents: 0),
                    pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0),
                ]
                let timeout = allowance > 0 ? Int32(-1) : held ? 50 : bucket.millisecondsUntilAvailable
                let ready = poll(&fds, 3, timeout)
                if ready < 0 {
                    if errno == EINTR { continue }
                    return
                }
                if fds[2].revents != 0 { return }
                if fds[0].revents != 0 {
                    let count = read(client, &buffer, min(allowance, buffer.count))
                    guard count > 0, sendAll(server, buffer, count) else { return }
                    bucket.spend(count)
                    counters.withLock { $0.upstream += count }
                }
                if fds[1].revents != 0 {
                    let count = read(server, &buffer, buffer.count)
                    guard count > 0, sendAll(client, buffer, count) else { return }
                    counters.withLock { $0.downstream += count }
                }
            }
        }

        /// Blocking send of `count` bytes; false when the peer is gone (no SIGPIPE: `MSG_NOSIGNAL`).
        private func sendAll(_ fd: Int32, _ buffer: [UInt8], _ count: Int) -> Bool {
            var sent = 0
            while sent < count {
                let result = buffer.withUnsafeBytes { send(fd, $0.baseAddress! + sent, count - sent, Int32(MSG_NOSIGNAL)) }
                if result < 0 {
                    if errno == EINTR { continue }
                    return false
                }
                sent += result
            }
            return true
        }
    }

    /// Bytes the client may send: `rate` per second, at most a tenth of a second's worth saved up.
    /// Reads wait for at least `minimumRead` bytes of allowance so a slow rate is not a stream of tiny reads.
    struct TokenBucket {
        let rate: Int
        let burst: Int
        let minimumRead: Int
        private var tokens: Double
        private var last: ContinuousClock.Instant?

        init(rate: Int) {
            self.rate = rate
            burst = max(1, rate / 10)
            minimumRead = min(burst, 1460)
            tokens = 0
        }

        mutating func available(now: ContinuousClock.Instant) -> Int {
            if let last {
                let elapsed = now - last
                let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
                tokens = min(Double(burst), tokens + seconds * Double(rate))
            } else {
                tokens = Double(minimumRead)
            }
            last = now
            return tokens >= Double(minimumRead) ? Int(tokens) : 0
        }

        mutating func spend(_ bytes: Int) { tokens -= Double(bytes) }

        var millisecondsUntilAvailable: Int32 {
            let missing = max(0, Double(minimumRead) - tokens)
            return Int32(max(1, (missing / Double(rate) * 1000).rounded(.up)))
        }
    }
}
