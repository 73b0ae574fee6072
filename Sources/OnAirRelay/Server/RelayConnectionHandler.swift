import NIOCore
import OnAirCore
import OnAirRTMP

/// The server side of one RTMP connection of the relay: handshake (RTMP spec §5.2, server role), chunk
/// decoding/encoding (§5.3), NetConnection and NetStream commands (§7.2), and the connection's bounded
/// outgoing queue. Stream state lives in ``RelayStreamRegistry``; this handler only says what the peer
/// asked for. Runs on the relay's one event loop, like the registry.
///
/// Every outgoing byte goes through ``RelayPlayerQueue`` and is written only while the channel is
/// writable (NIO write-buffer water marks), so a peer that stops reading costs bounded memory; a player's
/// bytes go straight to its socket while NIO holds none of them (`RelayConnectionHandler+Output.swift`).
final class RelayConnectionHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    let id: Int
    /// The peer's IP address (what ``RelayConfiguration/maxConnectionsPerAddress`` counts), set on activation.
    private(set) var address = "unknown"
    /// `address:port`, for events.
    private(set) var remote = "unknown"
    let registry: RelayStreamRegistry
    /// Read by the deadline on unfinished messages (``checkDeadlines(now:)``) while `processor` drives it.
    let decoder: RTMPInboundDecoder
    private let processor: NIOSingleStepByteToMessageProcessor<RTMPInboundDecoder>
    private var duties = RTMPProtocolDuties()
    var encoder = RTMPChunkEncoder()
    var queue: RelayPlayerQueue
    private(set) var context: ChannelHandlerContext?
    /// The channel's writability as last reported by `channelWritabilityChanged` (NIO fires it on the
    /// loop as soon as a write crosses a water mark), so the fan-out loop reads a field, not an atomic.
    var writable = true
    /// The key given in `connect`'s `app`/`tcUrl` query, if any.
    private var connectKey: String?
    /// `connect`'s application: part of every stream name this connection publishes or plays.
    private(set) var application = RelayStreamName.defaultApplication
    private var nextStreamID: UInt32 = 1
    /// `play` commands over the connection's life (bounded: a play flood re-sends the GOP cache each time).
    private var playCommands = 0
    /// Since when the connection, after `connect`, has neither published nor played (``RelayConfiguration/connectIdleTimeout``).
    var idleSince: NIODeadline?
    /// The decoder's oldest unfinished message and when it was first seen unfinished (``RelayConfiguration/incompleteMessageTimeout``).
    var oldestPartial: (serial: UInt64, since: NIODeadline)?
    /// What this connection publishes, and the stream it was given for that name, kept from the publish on
    /// so a message needs no name look-up (``RelayStreamRegistry/publishes(_:by:)``).
    private(set) var publishing: (streamID: UInt32, name: RelayStreamName, stream: RelayStream?)?
    private(set) var playing: [UInt32: RelayStreamName] = [:]
    var needsFlush = false
    /// The connection's socket for fan-out writes past NIO's pipeline, once it plays (``RelayDirectSocket``).
    var direct: RelayDirectSocket?
    /// This connection's players the fan-out sends to without asking (`RelayConnectionHandler+Fanout.swift`).
    var armedPlayers: [RelayStream.Player] = []
    /// Whether NIO may still hold bytes written through the pipeline; direct writes wait until it holds none
    /// (``RelayConnectionHandler/pipelineIsEmpty(_:)``), so bytes leave in the order they were written.
    var pipelineMayHoldBytes = true
    /// Message types this connection was told it sent in vain (``warnUnhandled(_:)``), once each.
    var warnedTypes: Set<UInt8> = []
    /// Set by `connect`; a peer that has not sent it within ``RelayConfiguration/handshakeTimeout`` is closed.
    private(set) var connected = false
    private var handshakeDeadline: Scheduled<Void>?
    /// Commands and pings the peer may still send now (``RelayConfiguration/requestRate``), and when the
    /// bucket was last refilled.
    var requestTokens = Double(RelayConfiguration.requestBurst)
    var requestsRefilled = NIODeadline.now()
    /// Every byte read from the peer, handshake included (what the relay acknowledges, RTMP spec §5.4.3).
    var bytesIn: UInt64 { duties.bytesReceived }
    /// Every byte written to the socket: by `send(2)`, or by NIO once it wrote what the pipeline was handed.
    var bytesOut: UInt64 = 0
    /// What NIO's pipeline holds of this connection's bytes, and whose they are (``reconcileWrites()``).
    var ledger = RelayPipelineLedger<RelayStream.Player>()

    init(registry: RelayStreamRegistry) {
        self.registry = registry
        self.id = registry.makeConnectionID()
        self.queue = RelayPlayerQueue(limit: registry.configuration.playerQueueLimit)
        self.decoder = RTMPInboundDecoder(
            handshake: RTMPHandshake(role: .server),
            chunkLimits: .init(maxPartialBytes: registry.configuration.maxPartialMessageBytes))
        self.processor = NIOSingleStepByteToMessageProcessor(decoder)
    }

    var droppedMessages: UInt64 { queue.droppedMessages }
    var queuedBytes: Int { queue.queuedBytes }

    // MARK: Pipeline events

    func channelActive(context: ChannelHandlerContext) {
        let remoteAddress = context.remoteAddress
        address = remoteAddress?.ipAddress ?? "unknown"
        let remote = remoteAddress.map { "\($0.ipAddress ?? "?"):\($0.port ?? 0)" } ?? "unknown"
        self.remote = remote
        guard registry.opened(self, address: address, remote: remote) else {
            context.close(promise: nil)         // over the per-address limit: not a byte is sent
            return
        }
        self.context = context
        _ = decoder.start()             // the server speaks only after C0+C1
        let timeout = registry.configuration.handshakeTimeout
        handshakeDeadline = context.eventLoop.assumeIsolated().scheduleTask(in: timeout) { [self] in
            guard !connected, self.context != nil else { return }
            registry.report(.connectionRejected(
                connection: id, remote: remote,
                reason: .handshakeTimeout(seconds: Self.seconds(timeout))))
            close()
        }
        context.fireChannelActive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard self.context != nil else { return }      // refused or closing: ignore what is still in flight
        let bytes = unwrapInboundIn(data)
        duties.received(byteCount: bytes.readableBytes)
        do {
            try processor.process(buffer: bytes) { step in
                switch step {
                case .handshakeReply(let reply):
                    writeThroughPipeline(reply, for: nil, flush: true, context: context)
                case .handshakeComplete:
                    break
                case .message(let raw, let warning):
                    // The chunk decoder hands over only its first tolerated break: one event per connection.
                    if let warning { registry.report(.peerWarning(connection: id, reason: RelayLogText.escaped(warning))) }
                    try handle(raw)
                }
                // Closed by what it handled: decode nothing more of what the peer sent.
                if self.context == nil { throw Closed() }
            }
        } catch is Closed {
            return
        } catch RTMPChunkDecoder.Error.partialMessagesTooLarge(let bytes, let limit) {
            reject(.partialMessagesTooLarge(bytes: bytes, limit: limit))
            return
        } catch {
            registry.report(.protocolError(connection: id, reason: RelayLogText.escaped("\(error)")))
            close()
            return
        }
        if let acknowledgement = duties.acknowledgementDue() { sendControl(acknowledgement, streamID: 0) }
    }

    /// Thrown out of the decoding loop once the connection is closed.
    private struct Closed: Error {}

    func channelReadComplete(context: ChannelHandlerContext) {
        flushIfNeeded()
        registry.flushDirty()
        reconcileWrites()               // NIO fires this before it closes on the peer's EOF
        context.fireChannelReadComplete()
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        writable = context.channel.isWritable
        reconcileWrites()
        if !writable { disarmAll() }
        if writable {
            drain()
            flushIfNeeded()
        }
        context.fireChannelWritabilityChanged()
    }

    func channelInactive(context: ChannelHandlerContext) {
        handshakeDeadline?.cancel()
        handshakeDeadline = nil
        disarmAll()                     // before the duplicate closes: its number may be reused at once
        ledger.abandon()                // NIO failed the writes it still held: they never left
        direct?.close()
        direct = nil
        registry.closed(self)
        self.context = nil
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        // Resets and broken pipes are how killed peers leave; channelInactive does the accounting.
        reconcileWrites()
        context.close(promise: nil)
    }

    // MARK: Registry API

    func sendStatus(_ status: RTMPStatus, streamID: UInt32) {
        sendControl(.command(.onStatus(status)), streamID: streamID)
    }

    func sendCommand(_ command: RTMPCommand) {
        sendControl(.command(command), streamID: 0)
    }

    func sendUserControl(_ event: RTMPUserControlEvent) {
        sendControl(.userControl(event), streamID: 0)
    }

    func close() {
        disarmAll()
        guard let context else { return }
        flushIfNeeded()
        reconcileWrites()               // what NIO still holds now is dropped by the close
        context.close(promise: nil)
    }

    /// Closes, and handles nothing the peer has sent since (the rest of a flood already read): after a
    /// refusal one `rejected` event, not one per remaining command.
    func closeAndIgnore() {
        close()
        context = nil
    }

    // MARK: Protocol

    func handle(_ raw: RTMPRawMessage) throws {
        guard let type = raw.type else { return warnUnhandled(raw.typeID) }
        switch type {
        case .audio, .video, .dataAMF0, .dataAMF3:
            guard let publishing, raw.messageStreamID == publishing.streamID,
                  let stream = publishing.stream, registry.publishes(stream, by: self),
                  let message = RelayMediaMessage(raw) else { return }
            registry.relay(message, in: stream, from: self)
        case .commandAMF0, .commandAMF3:
            guard spendRequest() else { return }
            guard case .command(let command) = try RTMPMessage(raw) else { return }
            handle(command, streamID: raw.messageStreamID)
        case .windowAcknowledgementSize, .userControl:
            let message = try RTMPMessage(raw)
            if case .userControl(.pingRequest) = message, !spendRequest() { return }
            if let answer = duties.handle(message) { sendControl(answer, streamID: 0) }
        case .aggregate:
            relayAggregate(raw)
        case .sharedObjectAMF0, .sharedObjectAMF3:
            warnUnhandled(raw.typeID)
        default:
            break      // Set Chunk Size and Abort are applied by the decoder; acks and bandwidth need nothing
        }
    }

    private func handle(_ command: RTMPCommand, streamID: UInt32) {
        let answer = command.transactionID != 0
        switch command.name {
        case RTMPCommand.Name.connect:
            connected = true
            handshakeDeadline?.cancel()
            handshakeDeadline = nil
            let object = command.commandObject
            application = RelayStreamName.application(fromConnect: object["app"]?.stringValue ?? "")
            for field in ["app", "tcUrl"] {
                if let text = object[field]?.stringValue, let query = text.split(separator: "?", maxSplits: 1).dropFirst().first {
                    connectKey = connectKey ?? RelayStreamName.query(String(query.split(separator: "/").first ?? ""))["key"]
                }
            }
            let chunkSize = registry.configuration.chunkSize
            let window = registry.configuration.acknowledgementWindow
            sendControl(.windowAcknowledgementSize(window), streamID: 0)
            sendControl(.setPeerBandwidth(windowSize: window, limit: .dynamic), streamID: 0)
            sendControl(.setChunkSize(UInt32(chunkSize)), streamID: 0)
            encoder.setChunkSize(chunkSize)
            sendControl(.command(RelayStatus.connectResult(transactionID: command.transactionID)), streamID: 0)
            updateIdle()
        case RTMPCommand.Name.createStream:
            let limit = registry.configuration.maxMessageStreamsPerConnection
            guard nextStreamID <= UInt32(clamping: limit) else {
                sendControl(.command(.error(transactionID: command.transactionID, status: RTMPStatus(
                    code: "NetConnection.Call.Failed", level: .error, description: "at most \(limit) streams per connection"))),
                    streamID: 0)
                reject(.tooManyMessageStreams(limit: limit))
                return
            }
            let id = nextStreamID
            nextStreamID += 1
            sendControl(.command(.result(transactionID: command.transactionID, arguments: [.number(Double(id))])), streamID: 0)
        case RTMPCommand.Name.releaseStream, RTMPCommand.Name.fcPublish:
            if answer { sendControl(.command(.result(transactionID: command.transactionID, arguments: [.undefined])), streamID: 0) }
        case RTMPCommand.Name.publish:
            publish(command, streamID: streamID)
        case RTMPCommand.Name.play:
            play(command, streamID: streamID)
        case RTMPCommand.Name.deleteStream:
            if let id = command.arguments.first?.numberValue, id >= 0, id <= Double(UInt32.max) { endStream(UInt32(id)) }
        case Self.closeStream:
            endStream(streamID)
        case RTMPCommand.Name.fcUnpublish:
            if let publishing { endStream(publishing.streamID) }
        default:
            break      // getStreamLength, _checkbw, receiveAudio …: ignored, as nginx-rtmp does
        }
    }

    /// `closeStream`, sent by FFmpeg's player on its message stream (not in the RTMP spec's command list).
    static let closeStream = "closeStream"

    private func publish(_ command: RTMPCommand, streamID: UInt32) {
        let rawName = command.arguments.first?.stringValue ?? ""
        var parsed: (name: RelayStreamName, query: [String: String])
        do {
            parsed = try RelayStreamName.parse(rawName)
            parsed.name = try parsed.name.inApplication(application)
        } catch {
            refusePublish(RelayStatus.badName("bad stream name: \(error)"), name: rawName, streamID: streamID)
            return
        }
        if let key = registry.configuration.publishKey, (parsed.query["key"] ?? connectKey) != key {
            refusePublish(RelayStatus.rejected("publishing needs the relay's key (?key=… after the stream name)"),
                          name: parsed.name.qualified, streamID: streamID)
            return
        }
        guard publishing == nil else {
            refusePublish(RelayStatus.badName("this connection is already publishing"), name: parsed.name.qualified, streamID: streamID)
            return
        }
        let type = command.arguments.dropFirst().first?.stringValue.flatMap { PublishType(rawValue: $0.lowercased()) } ?? .live
        let recording: PublishType?
        do {
            recording = try registry.configuration.recordMode.recording(type: type, query: parsed.query[RelayConfiguration.RecordMode.queryKey])
        } catch {
            refusePublish(RelayStatus.badName(error.description), name: parsed.name.qualified, streamID: streamID)
            return
        }
        switch registry.publish(parsed.name, type: type, recording: recording, handler: self, streamID: streamID) {
        case .success:
            publishing = (streamID, parsed.name, registry.publishedStream(parsed.name, by: self))
            updateIdle()
            sendStatus(RelayStatus.publishStart(parsed.name), streamID: streamID)
        case .failure(let refusal):
            refusePublish(RTMPStatus(code: refusal.code, level: .error, description: refusal.description),
                          name: parsed.name.qualified, streamID: streamID)
        }
    }

    private func refusePublish(_ status: RTMPStatus, name: String, streamID: UInt32) {
        sendStatus(status, streamID: streamID)
        registry.report(.publishRefused(stream: RelayLogText.safe(name), connection: id, code: status.code.rawValue,
                                        reason: RelayLogText.escaped(status.description)))
    }

    private func play(_ command: RTMPCommand, streamID: UInt32) {
        let rawName = command.arguments.first?.stringValue ?? ""
        let limit = registry.configuration.maxPlaysPerConnection
        playCommands += 1
        guard playing[streamID] != nil || playing.count < limit,
              playCommands <= limit * RelayConfiguration.playCommandsPerPlay else {
            sendStatus(RTMPStatus(code: .playFailed, level: .error, description: "at most \(limit) plays per connection"),
                       streamID: streamID)
            reject(.tooManyPlays(limit: limit))
            return
        }
        do {
            let name = try RelayStreamName.parse(rawName).name.inApplication(application)
            if let previous = playing[streamID] { registry.stopPlaying(previous, handler: self, streamID: streamID) }
            if playing.isEmpty { openDirectSocket() }
            playing[streamID] = name
            updateIdle()
            registry.play(name, handler: self, streamID: streamID)
        } catch {
            sendStatus(RelayStatus.streamNotFound("bad stream name: \(error)"), streamID: streamID)
            registry.report(.playRefused(stream: RelayLogText.safe(rawName), connection: id, reason: RelayLogText.escaped("\(error)")))
        }
    }

    private func endStream(_ streamID: UInt32) {
        if let publishing, publishing.streamID == streamID {
            self.publishing = nil
            registry.unpublish(publishing.name, handler: self, reason: .unpublished)
            sendStatus(RelayStatus.unpublishSuccess(publishing.name), streamID: streamID)
        }
        if let name = playing.removeValue(forKey: streamID) {
            registry.stopPlaying(name, handler: self, streamID: streamID)
        }
        updateIdle()
    }
}
