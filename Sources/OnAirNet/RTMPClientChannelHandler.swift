import Glibc
import NIOCore
import OnAirRTMP

/// The client side of one RTMP connection inside a NIO pipeline: handshake (RTMP spec §5.2), chunk
/// decoding/encoding (§5.3), automatic protocol duties, and request/response matching.
///
/// Everything here runs on the channel's event loop. It answers Ping (§7.1.7) and sends Acknowledgements
/// per the peer's window (§5.4.3) by itself, matches `_result`/`_error` to transaction IDs, and resolves
/// "wait for the next onStatus on stream N" requests; all other messages go to the owner's callback.
/// Writes are buffered; callers choose when to flush so bursts go out in one syscall.
final class RTMPClientChannelHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private let inbound: RTMPInboundDecoder
    private let processor: NIOSingleStepByteToMessageProcessor<RTMPInboundDecoder>
    private var duties = RTMPProtocolDuties()
    private var encoder = RTMPChunkEncoder()
    /// Every byte read, handshake included (acknowledgements count only what follows the handshake).
    private(set) var bytesRead: UInt64 = 0
    private var context: ChannelHandlerContext?
    private var handshakePromise: EventLoopPromise<Void>?
    private let eventLoop: any EventLoop
    private var closingDeliberately = false
    private var nextTransactionID: Double = 1
    private var pending: [Double: (command: String, promise: EventLoopPromise<RTMPCommand>)] = [:]
    private var statusWaiters: [(streamID: UInt32, promise: EventLoopPromise<RTMPStatus>)] = []
    private var closedError: RTMPClient.Error?
    private let responseTimeout: TimeAmount
    private let onIncoming: @Sendable (RTMPClient.Incoming) -> Void
    private let onClose: @Sendable (RTMPClient.Error?) -> Void
    /// Told once, the first time the server breaks the spec in a way the chunk decoder tolerates.
    private let onWarning: @Sendable (String) -> Void
    private var warned = false
    /// Message types already warned about (``warnOnce(type:_:)``).
    private var warnedTypes: Set<UInt8> = []
    /// Bytes of protocol answers (ping responses, acknowledgements) written but not yet taken by the socket.
    private var unreadAnswerBytes = 0
    /// The most protocol answers a server may leave unread, as the relay allows a client
    /// (`RelayConfiguration.maxQueuedControlBytes`): a server that floods pings and never reads would
    /// otherwise grow NIO's unbounded write buffer by gigabytes (issue 29).
    static let maxUnreadAnswerBytes = 1 << 20

    init(
        eventLoop: any EventLoop,
        responseTimeout: TimeAmount,
        onIncoming: @escaping @Sendable (RTMPClient.Incoming) -> Void,
        onClose: @escaping @Sendable (RTMPClient.Error?) -> Void,
        onWarning: @escaping @Sendable (String) -> Void = { _ in }
    ) {
        self.eventLoop = eventLoop
        let inbound = RTMPInboundDecoder(handshake: RTMPHandshake(role: .client))
        self.inbound = inbound
        self.processor = NIOSingleStepByteToMessageProcessor(inbound)
        self.handshakePromise = eventLoop.makePromise()
        self.handshakeFuture = handshakePromise!.futureResult
        self.responseTimeout = responseTimeout
        self.onIncoming = onIncoming
        self.onClose = onClose
        self.onWarning = onWarning
    }

    // MARK: Pipeline events

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
        if context.channel.isActive { startHandshake(context: context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        startHandshake(context: context)
        context.fireChannelActive()
    }

    private func startHandshake(context: ChannelHandlerContext) {
        let hello = inbound.start()
        if hello.readableBytes > 0 { context.writeAndFlush(wrapOutboundOut(hello), promise: nil) }
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let bytes = unwrapInboundIn(data)
        let byteCount = bytes.readableBytes
        let handshakeWasComplete = inbound.isHandshakeComplete
        bytesRead += UInt64(byteCount)
        do {
            try processor.process(buffer: bytes) { step in
                switch step {
                case .handshakeReply(let reply):
                    context.writeAndFlush(wrapOutboundOut(reply), promise: nil)
                case .handshakeComplete:
                    handshakePromise?.succeed()
                    handshakePromise = nil
                case .message(let raw, let warning):
                    if let warning { warnOnce(warning) }
                    handle(raw, context: context)
                }
            }
        } catch let error as RTMPHandshake.Error {
            fail(.handshakeFailed(error.description), context: context)
            return
        } catch {
            fail(.protocolViolation("\(error)"), context: context)
            return
        }
        // Acknowledgements count chunk-stream bytes after the handshake, as nginx-rtmp and FFmpeg do.
        if handshakeWasComplete {
            duties.received(byteCount: byteCount)
        } else if inbound.isHandshakeComplete {
            duties.received(byteCount: Int(clamping: bytesRead - UInt64(RTMPHandshake.peerByteCount)))
        }
        if let acknowledgement = duties.acknowledgementDue() { answer(acknowledgement.raw(), flush: true, context: context) }
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        context.flush()
    }

    func channelInactive(context: ChannelHandlerContext) {
        finish(closingDeliberately ? nil : (closedError ?? .connectionLost))
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        // Errors already in the operator's terms (TLS, from RTMPTLSErrorTranslator) keep their meaning.
        fail(error as? RTMPClient.Error ?? Self.translate(error), context: context)
    }

    /// A socket error in the operator's terms: a reset or a broken pipe is the connection lost (a peer or
    /// a network path that went), never "the server broke the protocol", and no syscall text reaches them.
    static func translate(_ error: any Error) -> RTMPClient.Error {
        if let io = error as? IOError, [ECONNRESET, EPIPE, ECONNABORTED, ETIMEDOUT, ENETUNREACH, EHOSTUNREACH].contains(io.errnoCode) {
            return .connectionReset
        }
        return .protocolViolation("\(error)")
    }

    // MARK: Owner API (call on the event loop)

    /// Completes when S2 has arrived.
    let handshakeFuture: EventLoopFuture<Void>

    /// Encodes a message; `flush` sends it (and everything buffered) now.
    @discardableResult
    func send(_ raw: RTMPRawMessage, flush: Bool) -> EventLoopFuture<Void> {
        guard let context else { return failedFuture() }
        var out = context.channel.allocator.buffer(capacity: raw.payload.readableBytes + 64)
        encoder.encode(raw, into: &out)
        let promise = context.eventLoop.makePromise(of: Void.self)
        context.write(wrapOutboundOut(out), promise: promise)
        if flush { context.flush() }
        return promise.futureResult
    }

    /// Encodes several messages into one buffer and one write.
    @discardableResult
    func send(batch: [RTMPRawMessage]) -> EventLoopFuture<Void> {
        sendCounting(batch: batch).map { _ in () }
    }

    /// As `send(batch:)`; completes, once the socket took the write, with its size in bytes (chunk
    /// headers included) — what the publisher's wire figures count.
    func sendCounting(batch: [RTMPRawMessage]) -> EventLoopFuture<Int> {
        guard let context else { return failedFuture() }
        let size = batch.reduce(0) { $0 + $1.payload.readableBytes + 64 }
        var out = context.channel.allocator.buffer(capacity: size)
        for raw in batch { encoder.encode(raw, into: &out) }
        let written = out.readableBytes
        return context.writeAndFlush(wrapOutboundOut(out)).map { written }
    }

    /// Sends Set Chunk Size (with the old size), then uses the new size (RTMP spec §5.4.1).
    func setOutgoingChunkSize(_ size: Int) {
        send(RTMPMessage.setChunkSize(UInt32(size)).raw(), flush: false)
        encoder.setChunkSize(size)
    }

    /// Sends `command` with a fresh transaction ID and completes with its `_result`, or fails on `_error`.
    func call(_ command: RTMPCommand, messageStreamID: UInt32 = 0) -> EventLoopFuture<RTMPCommand> {
        guard let context else { return failedFuture() }
        var command = command
        command.transactionID = nextTransactionID
        nextTransactionID += 1
        let promise = context.eventLoop.makePromise(of: RTMPCommand.self)
        let id = command.transactionID
        pending[id] = (command.name, promise)
        let name = command.name
        context.eventLoop.assumeIsolated().scheduleTask(in: responseTimeout) { [self] in
            if let entry = pending.removeValue(forKey: id) { entry.promise.fail(RTMPClient.Error.responseTimedOut(command: name)) }
        }
        send(RTMPMessage.command(command).raw(messageStreamID: messageStreamID), flush: true)
        return promise.futureResult
    }

    /// Sends a command that expects no `_result` (still numbered, as FFmpeg does); completes once the
    /// socket took it.
    @discardableResult
    func notify(_ command: RTMPCommand, messageStreamID: UInt32 = 0, flush: Bool = true) -> EventLoopFuture<Void> {
        var command = command
        command.transactionID = nextTransactionID
        nextTransactionID += 1
        return send(RTMPMessage.command(command).raw(messageStreamID: messageStreamID), flush: flush)
    }

    /// Sends a stream command (publish, play) and completes with the next `onStatus` on that stream.
    func sendAwaitingStatus(_ command: RTMPCommand, messageStreamID: UInt32) -> EventLoopFuture<RTMPStatus> {
        guard let context else { return failedFuture() }
        let promise = context.eventLoop.makePromise(of: RTMPStatus.self)
        statusWaiters.append((messageStreamID, promise))
        let name = command.name
        context.eventLoop.assumeIsolated().scheduleTask(in: responseTimeout) { [self] in
            if let index = statusWaiters.firstIndex(where: { $0.promise.futureResult === promise.futureResult }) {
                statusWaiters.remove(at: index).promise.fail(RTMPClient.Error.responseTimedOut(command: name))
            }
        }
        send(RTMPMessage.command(command).raw(messageStreamID: messageStreamID, chunkStreamID: RTMPMessage.ChunkStream.data), flush: true)
        return promise.futureResult
    }

    /// Flushes buffered writes and closes the channel.
    func close() -> EventLoopFuture<Void> {
        guard let context else { return failedFuture() }
        closingDeliberately = true
        context.flush()
        let promise = context.eventLoop.makePromise(of: Void.self)
        context.close(promise: promise)
        return promise.futureResult.recover { _ in }
    }

    /// Closes the connection because of `error` (a timeout seen by the owner); waiters fail with it.
    func abort(with error: RTMPClient.Error) {
        guard let context else { return }
        fail(error, context: context)
    }

    // MARK: Internals

    private func handle(_ raw: RTMPRawMessage, context: ChannelHandlerContext) {
        // Red5 and Wowza send media to players as aggregates (RTMP spec §7.1.6): each sub-message is handled
        // as if it had come alone. The split is shared with FuzzPlayerDemuxer, so what is fuzzed is this.
        RTMPReceivedMessage.forEach(in: raw) { received in
            switch received {
            case .message(let message, let raw):
                handle(message, raw: raw, context: context)
            case .skipped(let raw, let reason):
                // Skipped, as the spec lets receivers do — but said once per type, never in silence.
                warnOnce(type: raw.typeID, reason)
            }
        }
    }

    private func handle(_ message: RTMPMessage, raw: RTMPRawMessage, context: ChannelHandlerContext) {
        switch message {
        case .windowAcknowledgementSize, .userControl:
            if let answer = duties.handle(message) { self.answer(answer.raw(), flush: false, context: context) }
        case .command(let command) where command.name == RTMPCommand.Name.result || command.name == RTMPCommand.Name.error:
            if let entry = pending.removeValue(forKey: command.transactionID) {
                if command.name == RTMPCommand.Name.result {
                    entry.promise.succeed(command)
                } else {
                    entry.promise.fail(RTMPClient.Error.commandFailed(command: entry.command, status: command.status))
                }
                return
            }
        case .command(let command) where command.name == RTMPCommand.Name.onStatus:
            if let status = command.status, let index = statusWaiterIndex(for: status, on: raw.messageStreamID) {
                statusWaiters.remove(at: index).promise.succeed(status)
            }
        default:
            break
        }
        onIncoming(RTMPClient.Incoming(message: message, timestamp: raw.timestamp, messageStreamID: raw.messageStreamID))
    }

    /// The waiter a status answers: the one on its message stream. A `NetStream.` status on stream 0 while
    /// nobody waits there answers the oldest waiter, as ffmpeg and librtmp (which ignore the stream ID)
    /// take it: pyrtmp sends `Publish.Start` with a format-1 header that keeps stream 0 (RTMP spec §7.2.2).
    private func statusWaiterIndex(for status: RTMPStatus, on streamID: UInt32) -> Int? {
        if let index = statusWaiters.firstIndex(where: { $0.streamID == streamID }) { return index }
        guard streamID == 0, status.code.rawValue.hasPrefix("NetStream."), let first = statusWaiters.first else { return nil }
        warnOnce("peer broke the RTMP spec: \(status.code.rawValue) came on message stream 0, not the stream \(first.streamID) it answers; "
            + "taken as its answer, as ffmpeg and librtmp do")
        return statusWaiters.startIndex
    }

    /// Writes a protocol answer, counted until the socket takes it; past ``maxUnreadAnswerBytes`` unread
    /// the connection is closed with an error that says why (the server asks and never reads).
    private func answer(_ raw: RTMPRawMessage, flush: Bool, context: ChannelHandlerContext) {
        guard self.context != nil else { return }   // already closed: nothing more is answered
        var out = context.channel.allocator.buffer(capacity: raw.payload.readableBytes + 64)
        encoder.encode(raw, into: &out)
        let size = out.readableBytes
        unreadAnswerBytes += size
        guard unreadAnswerBytes <= Self.maxUnreadAnswerBytes else {
            fail(.protocolViolation("\(unreadAnswerBytes) bytes of protocol answers unread, over the \(Self.maxUnreadAnswerBytes)-byte limit "
                + "(the server floods pings or acknowledgement requests and never reads the answers)"), context: context)
            return
        }
        let promise = context.eventLoop.makePromise(of: Void.self)
        promise.futureResult.assumeIsolated().whenComplete { _ in self.unreadAnswerBytes -= size }
        context.write(wrapOutboundOut(out), promise: promise)
        if flush { context.flush() }
    }

    /// The first break of the spec this connection tolerated, told once.
    private func warnOnce(_ warning: String) {
        guard !warned else { return }
        warned = true
        onWarning(warning)
    }

    /// One warning per message type the client cannot use (unknown, unsupported, or not decodable), so a
    /// server that speaks something OnAir does not is visible once, not silent and not a flood.
    private func warnOnce(type: UInt8, _ warning: String) {
        guard warnedTypes.insert(type).inserted else { return }
        onWarning(warning)
    }

    private func fail(_ error: RTMPClient.Error, context: ChannelHandlerContext) {
        closedError = error
        finish(error)
        context.close(promise: nil)
    }

    private func finish(_ error: RTMPClient.Error?) {
        let failure = error ?? .connectionLost
        handshakePromise?.fail(failure == .connectionLost
            ? .handshakeFailed("the server closed the connection before the handshake completed; is this an RTMP server?")
            : failure)
        handshakePromise = nil
        for entry in pending.values { entry.promise.fail(failure) }
        pending.removeAll()
        for waiter in statusWaiters { waiter.promise.fail(failure) }
        statusWaiters.removeAll()
        if context != nil {
            context = nil
            onClose(error)
        }
    }

    private func failedFuture<T>() -> EventLoopFuture<T> {
        eventLoop.makeFailedFuture(closedError ?? RTMPClient.Error.connectionLost)
    }
}
