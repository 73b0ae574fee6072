import OnAirCore
#if canImport(Glibc)
import Glibc
#endif

/// One client connection through the link impairment stage: connects to the target once the link is up,
/// then moves bytes both ways under the state of the moment until either side closes, the stage stops, or
/// a handoff moves the link to another path (then both sockets are reset).
struct LinkImpairmentConnection {
    let shared: LinkImpairment.Shared
    let client: Int32
    let path: Int
    /// The target side's send buffer: large enough for a real path's round trip, small enough that the
    /// stage's own delay line (not the kernel) holds what a down link holds.
    static let serverSendBuffer = 256 << 10
    /// The most the target side's kernel may hold not yet sent (`TCP_NOTSENT_LOWAT`), as the client's own
    /// socket does (`RTMPClient.Configuration.unsentBytesLimit`). Without it, a slow path past the stage (a
    /// kernel link, a capped stage further on, a real network) fills the whole send buffer — 512 KiB once
    /// the kernel doubles `serverSendBuffer`, 13 s at 320 kbit/s — before the client's socket feels anything,
    /// and its congestion signal and ABR's queue delay arrive seconds late and in bursts. In-flight bytes
    /// stay unlimited, so a long round trip is not slowed.
    static let serverUnsentLimit = 16 << 10
    /// How often a loop with nothing to do looks at the state again (link-up, a new cap, a handoff).
    static let stateRecheck = Duration.milliseconds(50)

    func run() {
        guard let server = connectWhenUp() else {
            shared.release(client, reset: true)
            return
        }
        LinkSocket.setNonBlocking(client)
        LinkSocket.setNonBlocking(server)
        var upstream = LinkDirection(from: client, to: server, isUpstream: true)
        var downstream = LinkDirection(from: server, to: client, isUpstream: false)
        var acknowledgement = Acknowledgement()
        let reset = forward(&upstream, &downstream, acknowledgement: &acknowledgement)
        let stranded = upstream.heldBytes + downstream.heldBytes
        shared.counters.withLock {
            $0.heldBytes -= stranded
            $0.upstreamUnacknowledgedBytes -= acknowledgement.inFlight
            $0.upstreamWaitingBytes -= acknowledgement.waiting
            if reset == .handoff { $0.connectionsReset += 1 }
        }
        // Said before the sockets are reset, so the client's "connection lost" reads the stage's reason.
        if reset == .handoff { shared.targetFailure.withLock { $0 = LinkImpairment.handoffReason } }
        shared.release(client, reset: reset != .closed)
        shared.release(server, reset: reset != .closed)
    }

    private enum End { case closed, failed, handoff }

    /// Waits (holding the client's connection open) while the link is down, then connects to the target.
    private func connectWhenUp() -> Int32? {
        while !shared.isStopping {
            let state = shared.state.withLock { $0 }
            guard state.path == path else { return nil }
            if state.isUp { break }
            var fds = [pollfd(fd: shared.wakeRead, events: Int16(POLLIN), revents: 0)]
            _ = poll(&fds, 1, Int32(Self.stateRecheck.wholeMilliseconds))
        }
        guard !shared.isStopping else { return nil }
        guard let server = LinkSocket.connect(host: shared.target.host, port: shared.target.port) else {
            let code = errno
            let (host, port) = shared.target
            let reason = code == ECONNREFUSED
                ? "connection refused by \(StreamURL.bracketed(host)):\(port); is the RTMP server running and listening on that port?"
                : "cannot connect to \(StreamURL.bracketed(host)):\(port): \(String(cString: strerror(code)))"
            shared.targetFailure.withLock { $0 = reason }
            return nil
        }
        shared.targetFailure.withLock { $0 = nil }
        LinkSocket.setBufferSize(server, SO_SNDBUF, Self.serverSendBuffer)
        LinkSocket.setUnsentLimit(server, Self.serverUnsentLimit)
        LinkSocket.setBufferSize(client, SO_RCVBUF, shared.clientReceiveBuffer)
        return shared.track(server) ? server : nil
    }

    /// What the server's TCP has acknowledged of this connection's upstream bytes.
    struct Acknowledgement {
        var acknowledged = 0
        var inFlight = 0
        /// Bytes the client sent that the stage has not read yet (a cap holds them back): the client's queue
        /// on a capped link, as a phone's TCP would count them unacknowledged.
        var waiting = 0
    }

    /// Reads the server socket's send queue (SIOCOUTQ: bytes not yet acknowledged) and moves what the
    /// server acknowledged since the last look into the counters.
    private func measure(_ acknowledgement: inout Acknowledgement, server: Int32, delivered: Int) {
        var queued: Int32 = 0
        // SIOCOUTQ (== TIOCOUTQ, 0x5411 on Linux): unsent plus unacknowledged bytes of a TCP socket.
        guard Glibc.ioctl(server, UInt(0x5411), &queued) == 0 else { return }
        let acknowledged = max(acknowledgement.acknowledged, delivered - Int(queued))
        let inFlight = max(0, delivered - acknowledged)
        let (newlyAcknowledged, inFlightChange) = (acknowledged - acknowledgement.acknowledged, inFlight - acknowledgement.inFlight)
        guard newlyAcknowledged != 0 || inFlightChange != 0 else { return }
        (acknowledgement.acknowledged, acknowledgement.inFlight) = (acknowledged, inFlight)
        shared.counters.withLock {
            $0.upstreamAcknowledgedBytes += newlyAcknowledged
            $0.upstreamUnacknowledgedBytes += inFlightChange
        }
    }

    /// Reads how much the client's socket holds unread (FIONREAD, 0x541B on Linux) into the counters.
    private func measureWaiting(_ acknowledgement: inout Acknowledgement) {
        var unread: Int32 = 0
        guard Glibc.ioctl(client, UInt(0x541B), &unread) == 0 else { return }
        let change = Int(unread) - acknowledgement.waiting
        guard change != 0 else { return }
        acknowledgement.waiting = Int(unread)
        shared.counters.withLock { $0.upstreamWaitingBytes += change }
    }

    private func forward(_ upstream: inout LinkDirection, _ downstream: inout LinkDirection, acknowledgement: inout Acknowledgement) -> End {
        let clock = ContinuousClock()
        var buffer = [UInt8](repeating: 0, count: 16 << 10)
        while !shared.isStopping {
            let state = shared.state.withLock { $0 }
            if state.path != path { return .handoff }
            let now = clock.now
            upstream.configure(for: state)
            downstream.configure(for: state)
            let upAllowance = upstream.prepare(state, now: now)
            let downAllowance = downstream.prepare(state, now: now)
            let clientEvents = (upAllowance > 0 ? POLLIN : 0) | (downstream.wantsWrite(state) ? POLLOUT : 0)
            let serverEvents = (downAllowance > 0 ? POLLIN : 0) | (upstream.wantsWrite(state) ? POLLOUT : 0)
            // A socket with nothing wanted is left out (a negative fd is ignored), so a held hang-up or a
            // down link does not wake the loop in a spin; the timeout brings it back to look at the state.
            var fds = [
                pollfd(fd: clientEvents != 0 ? client : -1, events: Int16(clientEvents), revents: 0),
                pollfd(fd: serverEvents != 0 ? upstream.to : -1, events: Int16(serverEvents), revents: 0),
                pollfd(fd: shared.wakeRead, events: Int16(POLLIN), revents: 0),
            ]
            let wait = [Self.stateRecheck, upstream.nextEvent(now: now), downstream.nextEvent(now: now)].compactMap { $0 }.min()!
            let ready = poll(&fds, 3, Int32(max(1, wait.wholeMilliseconds)))
            if ready < 0 {
                if errno == EINTR { continue }
                return .failed
            }
            if fds[2].revents != 0 { return .closed }
            let readNow = clock.now
            let ok = step(&upstream, readable: fds[0].revents, writable: fds[1].revents, allowance: upAllowance,
                          delay: state.delay, now: readNow, buffer: &buffer)
                && step(&downstream, readable: fds[1].revents, writable: fds[0].revents, allowance: downAllowance,
                        delay: state.delay, now: readNow, buffer: &buffer)
            guard ok else { return .failed }
            measure(&acknowledgement, server: upstream.to, delivered: upstream.delivered)
            measureWaiting(&acknowledgement)
            if upstream.isFinished && downstream.isFinished { return .closed }
        }
        return .closed
    }

    /// Reads what the source offers within the allowance and writes what is due; false on a socket error.
    private func step(_ direction: inout LinkDirection, readable: Int16, writable: Int16, allowance: Int,
                      delay: Duration, now: ContinuousClock.Instant, buffer: inout [UInt8]) -> Bool {
        if allowance > 0, readable & Int16(POLLIN | POLLHUP | POLLERR) != 0 {
            switch direction.read(into: &buffer, allowance: allowance, releaseAt: now + delay) {
            case let .bytes(count): shared.counters.withLock { $0.heldBytes += count }
            case .endOfStream: break
            case .failed: return false
            case .wouldBlock: break
            }
        }
        if writable & Int16(POLLOUT | POLLERR | POLLHUP) != 0 {
            guard let written = direction.flush() else { return false }
            shared.counters.withLock {
                $0.heldBytes -= written
                if direction.isUpstream { $0.upstreamBytes += written } else { $0.downstreamBytes += written }
            }
        }
        return true
    }
}
