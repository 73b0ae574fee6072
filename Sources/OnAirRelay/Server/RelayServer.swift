import Glibc
import NIOCore
import NIOPosix
import OnAirCore
import Synchronization

/// The embedded RTMP relay (docs/design.md §3, GitHub issue 5): a small server that keeps Red5's semantics —
/// it relays `send()` data messages and records by publish type — so the seeds' flows work without an
/// external server. `onair serve` runs it as a process; `onair demo` runs it in-process:
///
/// ```swift
/// var configuration = RelayConfiguration()
/// configuration.port = 0                                   // any free port
/// configuration.recordDirectory = URL(fileURLWithPath: "recordings")
/// let relay = try await RelayServer.start(configuration)
/// print("rtmp://127.0.0.1:\(relay.port)/live/stream1")
/// for await event in relay.events { … }                    // RelayEvent: publishes, plays, drops …
/// await relay.stop()
/// ```
///
/// All connections run on one event loop, which owns every stream (``RelayStreamRegistry``): nginx-rtmp's
/// single-worker model, with no locks on the media path.
public final class RelayServer: Sendable {
    /// Why the relay could not start; one line each, saying what to change.
    public enum Error: Swift.Error, Equatable, CustomStringConvertible {
        case addressInUse(host: String, port: Int)
        case addressNotAvailable(host: String)
        case permissionDenied(host: String, port: Int)
        case cannotListen(host: String, port: Int, reason: String)

        public var description: String {
            switch self {
            case .addressInUse(let host, let port):
                "cannot listen on \(host):\(port): the port is in use (another onair serve or RTMP server?); pick another with --listen"
            case .addressNotAvailable(let host):
                "cannot listen on \(host): no interface of this machine has that address"
            case .permissionDenied(let host, let port):
                "cannot listen on \(host):\(port): permission denied (ports below 1024 need privileges)"
            case .cannotListen(let host, let port, let reason):
                "cannot listen on \(host):\(port): \(reason)"
            }
        }
    }

    public let configuration: RelayConfiguration
    /// The TCP port it listens on (the kernel's choice when the configuration said 0).
    public let port: Int
    /// Connections, publishes, plays, recordings, byte counts and drops; finishes after ``stop()``.
    public let events: AsyncStream<RelayEvent>
    private let continuation: AsyncStream<RelayEvent>.Continuation
    private let channel: any Channel
    private let registry: NIOLoopBound<RelayStreamRegistry>
    private let ownedGroup: MultiThreadedEventLoopGroup?
    /// Listeners added by ``addMoveListener()``.
    private let extraChannels = Mutex<[any Channel]>([])
    /// Each stream's latest recording file (``recordingPath(of:)``), from the registry's `recordingStarted`.
    private let recordingPaths: RecordingPaths

    private init(
        configuration: RelayConfiguration, port: Int, events: AsyncStream<RelayEvent>,
        continuation: AsyncStream<RelayEvent>.Continuation, channel: any Channel,
        registry: NIOLoopBound<RelayStreamRegistry>, ownedGroup: MultiThreadedEventLoopGroup?, recordingPaths: RecordingPaths
    ) {
        self.recordingPaths = recordingPaths
        self.configuration = configuration
        self.port = port
        self.events = events
        self.continuation = continuation
        self.channel = channel
        self.registry = registry
        self.ownedGroup = ownedGroup
    }

    /// Binds and starts serving; throws ``RelayConfiguration/Error`` or ``Error`` with a readable reason.
    public static func start(_ configuration: RelayConfiguration) async throws -> RelayServer {
        try configuration.validate()
        let ownedGroup = configuration.eventLoopGroup == nil ? MultiThreadedEventLoopGroup(numberOfThreads: 1) : nil
        let loop = (configuration.eventLoopGroup ?? ownedGroup!).next()
        let (events, continuation) = AsyncStream.makeStream(of: RelayEvent.self, bufferingPolicy: .bufferingNewest(10_000))
        let recordingPaths = RecordingPaths()
        let registry = try await loop.submit {
            NIOLoopBound(RelayStreamRegistry(eventLoop: loop, configuration: configuration, emit: { event in
                recordingPaths.note(event)
                continuation.yield(event)
            }), eventLoop: loop)
        }.get()
        let bootstrap = Self.bootstrap(loop: loop, configuration: configuration, registry: registry)
        let channel: any Channel
        do {
            channel = try await bootstrap.bind(host: configuration.host, port: configuration.port).get()
        } catch {
            try? await ownedGroup?.shutdownGracefully()
            throw map(error, configuration: configuration)
        }
        let port = channel.localAddress?.port ?? configuration.port
        try await loop.submit { registry.value.start() }.get()
        continuation.yield(.listening(host: configuration.host, port: port))
        return RelayServer(
            configuration: configuration, port: port, events: events, continuation: continuation, channel: channel,
            registry: registry, ownedGroup: ownedGroup, recordingPaths: recordingPaths)
    }

    /// The file the latest recording of `stream` (its qualified name: `name`, or `app/name` outside `live`)
    /// went to; nil when it was never recorded. Usually `<record-dir>/<name>.flv`, but `NAME-N.flv` when
    /// another relay was recording that name's file at the time (`RelayRecorder`).
    public func recordingPath(of stream: String) -> String? {
        recordingPaths.path(of: stream)
    }

    /// The listener's bootstrap: every connection on the relay's one loop, sharing its registry.
    private static func bootstrap(loop: any EventLoop, configuration: RelayConfiguration,
                                  registry: NIOLoopBound<RelayStreamRegistry>) -> ServerBootstrap {
        var bootstrap = ServerBootstrap(group: loop)
            .serverChannelOption(.backlog, value: 256)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelOption(.socketOption(.tcp_nodelay), value: configuration.tcpNoDelay ? 1 : 0)
            .childChannelOption(.writeBufferWaterMark, value: configuration.writeBufferWaterMark)
            .childChannelOption(.maxMessagesPerRead, value: 16)
        if let size = configuration.socketSendBufferSize {
            bootstrap = bootstrap.childChannelOption(.socketOption(.so_sndbuf), value: SocketOptionValue(size))
        }
        bootstrap = bootstrap.serverChannelInitializer { channel in
            channel.eventLoop.makeCompletedFuture {
                try channel.pipeline.syncOperations.addHandler(AcceptBackoffHandler(
                    shouldForwardIOErrorCaught: false, backoffProvider: { registry.value.acceptFailed($0) }))
            }
        }
        bootstrap = bootstrap.childChannelInitializer { channel in
            channel.eventLoop.makeCompletedFuture {
                try channel.pipeline.syncOperations.addHandler(RelayConnectionHandler(registry: registry.value))
            }
        }
        return bootstrap
    }

    /// A second listening port of the same relay (same streams), where `server-move` sends its clients
    /// (Enhanced RTMP v2 ReconnectRequest's `tcUrl`): the demo's stand-in for a second server. Returns its port.
    public func addMoveListener() async throws -> Int {
        let extra = try await Self.bootstrap(loop: channel.eventLoop, configuration: configuration, registry: registry)
            .bind(host: configuration.host, port: 0).get()
        extraChannels.withLock { $0.append(extra) }
        let port = extra.localAddress?.port ?? 0
        let registry = self.registry
        let target = "rtmp://\(configuration.host):\(port)"
        try await channel.eventLoop.submit { registry.value.moveTarget = target }.get()
        return port
    }

    /// What every stream looks like now (publisher, players, bytes, drops).
    public func streams() async throws -> [RelayStreamSnapshot] {
        let registry = self.registry
        return try await channel.eventLoop.submit { registry.value.snapshot() }.get()
    }

    /// TCP_NODELAY as set on each open connection's socket (tests: ``RelayConfiguration/tcpNoDelay`` reaches
    /// the accepted sockets, issue 31).
    func connectionNoDelay() async throws -> [Bool] {
        let registry = self.registry
        return try await channel.eventLoop.submit { registry.value.connectionNoDelay() }.get()
    }

    /// Whether each open connection writes straight to its socket (tests: a player does, with
    /// ``RelayConfiguration/directWrites``, GitHub issue 31).
    func connectionDirectWrites() async throws -> [Bool] {
        let registry = self.registry
        return try await channel.eventLoop.submit { registry.value.connectionDirectWrites() }.get()
    }

    /// How many players the fan-out sends to from their slot alone (tests, GitHub issue 31,
    /// `RelayConnectionHandler+Fanout.swift`).
    func armedPlayerCount() async throws -> Int {
        let registry = self.registry
        return try await channel.eventLoop.submit { registry.value.armedPlayerCount() }.get()
    }

    /// The operator's interruption from the server's side (`server-restart`, `server-busy`, `server-stall`;
    /// issue 27), started on the relay's loop; its start and end are ``RelayEvent/serverInterruption(action:milliseconds:ended:)`` events.
    public func interrupt(_ command: ServerCommand) {
        let registry = self.registry
        channel.eventLoop.execute { registry.value.interrupt(command) }
    }

    /// Stops listening, tells players their publishers are gone, closes recordings (whole tags, flushed)
    /// and every connection, then finishes ``events``. Safe to call more than once.
    public func stop() async {
        let registry = self.registry
        try? await channel.eventLoop.submit { registry.value.shutdown() }.get()
        try? await channel.close()
        for extra in extraChannels.withLock({ $0 }) { try? await extra.close() }
        // Give the closes a turn of the loop so channelInactive accounting runs before the group goes.
        try? await channel.eventLoop.submit {}.get()
        try? await ownedGroup?.shutdownGracefully()
        continuation.yield(.stopped)
        continuation.finish()
    }

    private static func map(_ error: any Swift.Error, configuration: RelayConfiguration) -> any Swift.Error {
        let host = configuration.host
        let port = configuration.port
        if let io = error as? IOError {
            switch io.errnoCode {
            case EADDRINUSE: return Error.addressInUse(host: host, port: port)
            case EADDRNOTAVAIL: return Error.addressNotAvailable(host: host)
            case EACCES: return Error.permissionDenied(host: host, port: port)
            default: return Error.cannotListen(host: host, port: port, reason: io.description)
            }
        }
        if error is SocketAddressError {
            return RelayConfiguration.Error.badAddress("\(host):\(port)")
        }
        return Error.cannotListen(host: host, port: port, reason: "\(error)")
    }
}
