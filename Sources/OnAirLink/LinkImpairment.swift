import Foundation
import OnAirCore
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The network a phone sees, placed between OnAir's client and any server: a loopback TCP stage that
/// forwards every connection to the real target and applies the operator's `LinkCommand`s to it — down
/// (nothing passes, sockets stay open), a cap, an added delay, a handoff that resets the old path's
/// connections. It needs no root and no kernel queueing discipline, so it works against nginx-rtmp,
/// `onair serve` or a remote server alike: the client connects to `port` instead of the server.
///
/// Why plain POSIX sockets and `poll` on threads of its own rather than a SwiftNIO proxy: the stage's work
/// is timing — a token bucket, a delay line released at exact instants, a down link that holds — which is a
/// poll loop with a computed timeout; on NIO it would be the same logic spread over scheduled tasks and two
/// channels' autoRead toggling. Keeping it off the event loop that carries the RTMP client also means an
/// impaired link can never delay the client's own loop. OnAir has one or two connections through the stage
/// (publisher, subscriber), so a thread per connection costs nothing, and the design is the one the
/// test-only `ThrottledProxy` proved in the throttled-link soak, which now runs through this stage.
///
/// The cap is felt where a phone feels it: the stage reads from the client only as the bucket allows, and
/// its client-side socket has a small receive buffer, so the client's own socket fills and its writes wait
/// instead of the kernel absorbing megabytes at loopback speed.
public final class LinkImpairment: Sendable {
    /// The unsent bytes a publisher's socket toward the stage may hold (`TCP_NOTSENT_LOWAT`): the stage
    /// counts what it has not read and what the server has not acknowledged, not what the client's kernel
    /// holds, so that part is kept small; loopback has no round trip for it to cover.
    public static let clientUnsentLimit = 8 << 10
    /// The receive buffer a publisher's stage is made with: what the stage holds unread is acknowledged to
    /// the client at once, so the publisher's TCP_INFO (what ABR reads) cannot count it as queued. A small
    /// window keeps that blind part to a few KB; the rest of a capped stage's backlog waits in the client's
    /// own socket, unsent, as it waits before a real bottleneck. (ABR through the stage cannot see a lifted cap
    /// from the round trip; a burst's wait on this window shows it: see `PublishNetwork.start`.)
    public static let publisherReceiveBuffer = 4 << 10
    /// What has moved through the stage: a measurement, for the dashboard and the tests.
    public struct Counters: Sendable, Equatable {
        /// Bytes delivered to the server (client → server).
        public var upstreamBytes = 0
        /// Bytes delivered to the client (server → client).
        public var downstreamBytes = 0
        /// Bytes toward the server that the server's TCP acknowledged: what the wire carried, past every
        /// buffer of the stage and of its kernel (the send-stall watchdog's measure through the stage).
        public var upstreamAcknowledgedBytes = 0
        /// Bytes toward the server written to the stage's sockets and not yet acknowledged.
        public var upstreamUnacknowledgedBytes = 0
        /// Bytes the client sent that the stage has not read yet (held back by a cap or a down link): with
        /// `upstreamUnacknowledgedBytes`, what a phone's TCP would hold unacknowledged.
        public var upstreamWaitingBytes = 0
        /// Bytes read but not yet delivered (the delay line and the held bytes of a down link).
        public var heldBytes = 0
        public var connectionsAccepted = 0
        public var connectionsOpen = 0
        /// Connections refused at accept: from another process, or over ``maxConnections`` (issue 29).
        public var connectionsRefused = 0
        /// Connections reset by a handoff.
        public var connectionsReset = 0
    }

    /// Why a handoff's connection went: the stage reset it on purpose — not the server, not the protocol.
    /// Short enough that "connection lost: …" stays whole on an 80-column event log.
    public static let handoffReason = "the link stage reset it on purpose (handoff)"
    /// The most connections the stage forwards at once: OnAir has one or two through it (publisher,
    /// subscriber) and a reconnect overlaps the old one briefly; each is a thread.
    public static let maxConnections = 8

    /// The port OnAir's client connects to (127.0.0.1).
    public let port: Int
    public let targetHost: String
    public let targetPort: Int
    private let shared: Shared

    /// Listens on a free loopback port (or `listenPort`) and forwards every connection to
    /// `targetHost:targetPort` under `state`. With `ownProcessOnly` (the default: the stage is OnAir's
    /// own client's phone) a connection from any other process is closed at accept, uncounted
    /// (``LinkPeerCheck``); tests that put the stage in front of a separate `onair` turn it off.
    public init(targetHost: String, targetPort: Int, state: LinkImpairmentState = LinkImpairmentState(), listenPort: Int = 0,
                clientReceiveBufferBytes: Int = 16 << 10, ownProcessOnly: Bool = true) throws {
        self.targetHost = targetHost
        self.targetPort = targetPort
        let (listener, boundPort) = try LinkSocket.listen(port: listenPort, receiveBuffer: clientReceiveBufferBytes)
        port = boundPort
        shared = try Shared(listener: listener, target: (targetHost, targetPort), state: state,
                            clientReceiveBuffer: clientReceiveBufferBytes, ownProcessOnly: ownProcessOnly ? boundPort : nil)
        shared.startAccepting()
    }

    deinit { shared.stop() }

    /// The state applied now.
    public var state: LinkImpairmentState { shared.state.withLock { $0 } }

    /// Applies one command and returns the new state; a handoff resets the connections of the old path.
    @discardableResult
    public func apply(_ command: LinkCommand) -> LinkImpairmentState {
        shared.state.withLock { state in
            state.apply(command)
            return state
        }
    }

    public var counters: Counters { shared.counters.withLock { $0 } }

    /// Why the stage's newest attempt to reach the target failed (`connection refused by host:port; …`),
    /// nil once one succeeds: the client only sees its loopback connection reset, so its owner reports
    /// this instead of an error naming the stage's port.
    public var targetFailure: String? { shared.targetFailure.withLock { $0 } }

    /// Closes every connection and the listener, and waits for the stage's threads to end.
    public func stop() { shared.stop() }
}

extension LinkImpairment {
    /// What the threads share; apart from `LinkImpairment` so that they do not keep the stage alive.
    final class Shared: Sendable {
        let listener: Int32
        let target: (host: String, port: Int)
        let clientReceiveBuffer: Int
        /// The stage's own port when only this process's connections are forwarded.
        let ownProcessOnly: Int?
        let state: Mutex<LinkImpairmentState>
        let counters = Mutex(Counters())
        let targetFailure = Mutex<String?>(nil)
        /// Becomes readable (never read) when the stage stops: wakes every `poll`.
        let wakeRead: Int32
        private let wakeWrite: Int32
        private let stopping = Atomic<Bool>(false)
        private let openDescriptors = Mutex<Set<Int32>>([])
        private let threads = DispatchGroup()

        init(listener: Int32, target: (String, Int), state: LinkImpairmentState, clientReceiveBuffer: Int, ownProcessOnly: Int?) throws {
            var ends: [Int32] = [0, 0]
            guard pipe(&ends) == 0 else {
                close(listener)
                throw LinkSocket.Error.system("pipe", errno)
            }
            self.listener = listener
            self.target = target
            self.clientReceiveBuffer = clientReceiveBuffer
            self.ownProcessOnly = ownProcessOnly
            self.state = Mutex(state)
            wakeRead = ends[0]
            wakeWrite = ends[1]
        }

        var isStopping: Bool { stopping.load(ordering: .acquiring) }

        func startAccepting() {
            spawn("onair.link.accept") { $0.acceptLoop() }
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

        private func spawn(_ name: String, _ body: @escaping @Sendable (Shared) -> Void) {
            threads.enter()
            let thread = Thread { [self] in
                body(self)
                threads.leave()
            }
            thread.name = name
            thread.start()
        }

        private func acceptLoop() {
            while !isStopping {
                var fds = [pollfd(fd: listener, events: Int16(POLLIN), revents: 0), pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0)]
                guard poll(&fds, 2, -1) >= 0 || errno == EINTR else { return }
                if fds[1].revents != 0 { return }
                guard fds[0].revents & Int16(POLLIN) != 0 else { continue }
                let client = accept(listener, nil, nil)
                guard client >= 0 else { continue }
                guard admits(client) else {
                    // Closed at once, no thread, no byte forwarded or counted but the refusal itself.
                    LinkSocket.setResetOnClose(client)
                    close(client)
                    counters.withLock { $0.connectionsRefused += 1 }
                    continue
                }
                guard track(client) else { return }
                let path = state.withLock { $0.path }
                counters.withLock {
                    $0.connectionsAccepted += 1
                    $0.connectionsOpen += 1
                }
                spawn("onair.link.connection") { shared in
                    LinkImpairmentConnection(shared: shared, client: client, path: path).run()
                    shared.counters.withLock { $0.connectionsOpen -= 1 }
                }
            }
        }

        /// Whether an accepted connection may go through: under ``LinkImpairment/maxConnections`` open and,
        /// when asked, from this process.
        private func admits(_ client: Int32) -> Bool {
            guard counters.withLock({ $0.connectionsOpen }) < LinkImpairment.maxConnections else { return false }
            guard let stagePort = ownProcessOnly else { return true }
            guard let peer = LinkPeerCheck.peerPort(client) else { return false }
            return LinkPeerCheck.isOwnProcess(peerPort: peer, stagePort: stagePort)
        }

        /// Registers a descriptor so `stop` can shut it down; false (and closed) if the stage is stopping.
        func track(_ descriptor: Int32) -> Bool {
            let tracked = openDescriptors.withLock { descriptors -> Bool in
                guard !isStopping else { return false }
                descriptors.insert(descriptor)
                return true
            }
            if !tracked { close(descriptor) }
            return tracked
        }

        /// Closes a tracked descriptor; with `reset`, as an RST (SO_LINGER 0), as a dead radio path leaves it.
        func release(_ descriptor: Int32, reset: Bool) {
            openDescriptors.withLock { _ = $0.remove(descriptor) }
            if reset { LinkSocket.setResetOnClose(descriptor) }
            close(descriptor)
        }
    }
}
