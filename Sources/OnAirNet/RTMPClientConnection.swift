#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import NIOCore
import Synchronization
import NIOPosix
import NIOSSL
import OnAirCore
import OnAirRTMP

/// One connected, handshaken RTMP NetConnection (RTMP spec §7.2.1): the shared first half of
/// ``RTMPPublisher`` and ``RTMPPlayer``.
///
/// `open` does TCP → handshake → Set Chunk Size → `connect` and maps every failure on the way to an
/// ``RTMPClient/Error`` that says what went wrong. The protocol state lives in
/// ``RTMPClientChannelHandler`` on the channel's event loop; this type only hops onto that loop.
final class RTMPClientConnection: Sendable {
    let channel: any Channel
    let handler: NIOLoopBound<RTMPClientChannelHandler>
    let url: StreamURL

    private init(channel: any Channel, handler: NIOLoopBound<RTMPClientChannelHandler>, url: StreamURL) {
        self.channel = channel
        self.handler = handler
        self.url = url
    }

    var eventLoop: any EventLoop { channel.eventLoop }

    /// Connects to `url`'s server and application; over TLS for `rtmps://` (verified against
    /// `configuration.tls`, never falling back to plain RTMP).
    static func open(
        url: StreamURL,
        configuration: RTMPClient.Configuration,
        onIncoming: @escaping @Sendable (RTMPClient.Incoming) -> Void,
        onClose: @escaping @Sendable (RTMPClient.Error?) -> Void,
        onWarning: @escaping @Sendable (String) -> Void = { _ in }
    ) async throws -> RTMPClientConnection {
        let tls = try url.usesTLS ? makeTLSContext(configuration.tls, url: url) : nil
        let group = configuration.eventLoopGroup ?? MultiThreadedEventLoopGroup.singleton
        let timeout = configuration.responseTimeout
        // The initializer hands the handler out directly: looking it up in the pipeline after `connect`
        // fails when a server answers and closes at once (the pipeline is already torn down), and then the
        // handler's own verdict — "not RTMP", "closed during the handshake" — would be lost.
        let installed = Mutex<NIOLoopBound<RTMPClientChannelHandler>?>(nil)
        let installedTLS = Mutex<NIOLoopBound<RTMPTLSErrorTranslator>?>(nil)
        var bootstrap = ClientBootstrap(group: group)
            .connectTimeout(configuration.connectTimeout)
            .channelOption(.socketOption(.tcp_nodelay), value: 1)
        if let limit = configuration.unsentBytesLimit {
            bootstrap = bootstrap.channelOption(
                ChannelOptions.Types.SocketOption(level: .tcp, name: .init(rawValue: Int32(TCP_NOTSENT_LOWAT))), value: SocketOptionValue(limit))
        }
        bootstrap = bootstrap
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    if let tls {
                        let translator = RTMPTLSErrorTranslator(url: url, trustDescription: configuration.tls.trustDescription)
                        try channel.pipeline.syncOperations.addHandlers(
                            RTMPClientConnection.makeTLSHandler(context: tls, url: url), translator
                        )
                        installedTLS.withLock { $0 = NIOLoopBound(translator, eventLoop: channel.eventLoop) }
                    }
                    let handler = RTMPClientChannelHandler(
                        eventLoop: channel.eventLoop, responseTimeout: timeout, onIncoming: onIncoming, onClose: onClose,
                        onWarning: onWarning)
                    try channel.pipeline.syncOperations.addHandler(handler)
                    installed.withLock { $0 = NIOLoopBound(handler, eventLoop: channel.eventLoop) }
                }
            }
        let channel: any Channel
        do {
            // Through the link stage only the dialled address changes; every field sent names `url`.
            let address = configuration.route ?? RTMPClient.Route(host: url.host, port: url.port)
            channel = try await bootstrap.connect(host: address.host, port: address.port).get()
        } catch {
            throw mapConnectError(error, url: url)
        }
        guard let handler = installed.withLock({ $0 }) else {
            throw RTMPClient.Error.handshakeFailed("the connection was set up without its RTMP handler")
        }
        let connection = RTMPClientConnection(channel: channel, handler: handler, url: url)
        do {
            let handshakeTimeout = configuration.handshakeTimeout
            let translator = installedTLS.withLock { $0 }
            try await channel.eventLoop.flatSubmit {
                let future = handler.value.handshakeFuture
                let timer = channel.eventLoop.scheduleTask(in: handshakeTimeout) {
                    handler.value.abort(with: translator?.value.handshakeTimeoutError ?? .handshakeTimedOut)
                }
                future.whenComplete { _ in timer.cancel() }
                return future
            }.get()
        } catch {
            await connection.close()
            throw error
        }
        do {
            let chunkSize = configuration.chunkSize
            let connect = RTMPCommand.connect(app: url.app, tcURL: url.tcURL, flashVersion: configuration.flashVersion)
            let result = try await connection.flatSubmit { handler in
                handler.setOutgoingChunkSize(chunkSize)
                return handler.call(connect)
            }
            if let status = result.status, status.code != .connectSuccess {
                throw RTMPClient.Error.connectRejected(status)
            }
            // The window after which the server acknowledges what it read (RTMP spec §5.4.4), as FFmpeg and
            // OBS announce theirs: a publisher cross-checks TCP_INFO with those Acknowledgements.
            let window = configuration.windowAcknowledgementSize
            connection.execute { handler in
                handler.send(RTMPMessage.windowAcknowledgementSize(window).raw(), flush: true)
            }
        } catch {
            await connection.close()
            if case RTMPClient.Error.commandFailed(_, let status) = error { throw RTMPClient.Error.connectRejected(status) }
            if case RTMPClient.Error.connectionLost = error { throw RTMPClient.Error.connectRejected(nil) }
            throw error
        }
        return connection
    }

    /// Runs `body` on the event loop with the handler and awaits the future it returns.
    func flatSubmit<T: Sendable>(_ body: @escaping @Sendable (RTMPClientChannelHandler) -> EventLoopFuture<T>) async throws -> T {
        let handler = self.handler
        do {
            // Already on the loop (the media pump, see `EventLoopTaskExecutor`): no task to queue first.
            if eventLoop.inEventLoop { return try await body(handler.value).get() }
            return try await eventLoop.flatSubmit { body(handler.value) }.get()
        } catch let error as RTMPClient.Error {
            throw error
        } catch {
            // Socket errors (ECONNRESET, EPIPE, closed channel) all mean the same thing to the caller.
            throw RTMPClient.Error.connectionLost
        }
    }

    /// Runs `body` on the event loop with the handler, without waiting for it.
    func execute(_ body: @escaping @Sendable (RTMPClientChannelHandler) -> Void) {
        let handler = self.handler
        eventLoop.execute { body(handler.value) }
    }

    /// `createStream` (RTMP spec §7.2.1.3): the new message stream ID.
    func createStream() async throws -> UInt32 {
        let result = try await flatSubmit { $0.call(.createStream(transactionID: 0)) }
        guard let id = result.arguments.first?.numberValue, id >= 0, id <= Double(UInt32.max) else {
            throw RTMPClient.Error.protocolViolation("createStream answered without a stream ID")
        }
        return UInt32(id)
    }

    /// Flushes and closes; safe to call more than once.
    func close() async {
        try? await flatSubmit { $0.close() }
    }

    private static func makeTLSContext(_ tls: RTMPTLSConfiguration, url: StreamURL) throws -> NIOSSLContext {
        do {
            return try tls.makeClientContext()
        } catch {
            throw RTMPClient.Error.tlsHandshakeFailed(url: url.redacted, reason: "cannot set up TLS with \(tls.trustDescription): \(error)")
        }
    }

    private static func makeTLSHandler(context: NIOSSLContext, url: StreamURL) throws -> NIOSSLClientHandler {
        do {
            return try RTMPTLSConfiguration.makeClientHandler(context: context, host: url.host)
        } catch {
            throw RTMPClient.Error.tlsHandshakeFailed(url: url.redacted, reason: "cannot use \(url.host) as the TLS server name: \(error)")
        }
    }

    private static func mapConnectError(_ error: any Error, url: StreamURL) -> RTMPClient.Error {
        if let error = error as? RTMPClient.Error { return error }
        if let error = error as? NIOConnectionError {
            if error.connectionErrors.isEmpty { return .nameNotResolved(host: url.host) }
            for failure in error.connectionErrors {
                if let io = failure.error as? IOError, io.errnoCode == ECONNREFUSED {
                    return .connectionRefused(host: url.host, port: url.port)
                }
                if case ChannelError.connectTimeout = failure.error { return .connectTimedOut(host: url.host, port: url.port) }
            }
            return .connectionRefused(host: url.host, port: url.port)
        }
        if let io = error as? IOError, io.errnoCode == ECONNREFUSED { return .connectionRefused(host: url.host, port: url.port) }
        if case ChannelError.connectTimeout = error { return .connectTimedOut(host: url.host, port: url.port) }
        return .handshakeFailed("\(error)")
    }
}
