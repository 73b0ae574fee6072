import NIOCore
import OnAirCore
import OnAirRTMP

/// Every stream of one relay, owned by the relay's single event loop: connection handlers (on the same
/// loop) call it directly, and everything else reaches it by hopping onto that loop. No other place holds
/// stream state, so publish, play, fan-out, recording and idle checks never race.
///
/// Fan-out (`RelayStreamRegistry+Fanout.swift`) chunks a read burst's messages once (copied per message stream ID)
/// into one batch (``RelayFanoutBatch``) and hands it to every player at the end of the burst
/// (``flushDirty()``), so 100 players cost 100 writes per burst, not per message.
final class RelayStreamRegistry {
    /// Why a publish was refused: the status code and description sent back.
    struct Refusal: Swift.Error, Equatable {
        var code: RTMPStatus.Code
        var description: String
    }

    let eventLoop: any EventLoop
    let configuration: RelayConfiguration
    let emit: @Sendable (RelayEvent) -> Void
    private(set) var streams: [RelayStreamName: RelayStream] = [:]
    private(set) var connections: [Int: RelayConnectionHandler] = [:]
    private var addresses: RelayAddressLimiter
    private var dirty: [RelayConnectionHandler] = []
    /// The other of the two buffers ``flushDirty()`` alternates with `dirty`.
    private var spareDirty: [RelayConnectionHandler] = []
    /// Streams whose fan-out batches wait for the end of the publisher's read burst (or, audio only, for
    /// the next video frame); each at most once (``RelayStream/isListedAsPending``).
    var pendingStreams: [RelayStream] = []
    /// The other of the two buffers ``deliverPendingBatches()`` alternates with `pendingStreams`, so handing
    /// out batches allocates no array (GitHub issue 31).
    var spareStreams: [RelayStream] = []
    /// Hands out held audio batches when no video frame came within ``RelayConfiguration/audioMergeWindow``.
    var heldBatchTimer: Scheduled<Void>?
    private var nextConnectionID = 1
    private var tick: Scheduled<Void>?
    private var isShutDown = false
    private var lastStats = NIODeadline.now()
    /// Whether `accept` is backing off for lack of descriptors (logged once per episode).
    private var acceptPaused = false
    /// Until when new connections are closed on arrival (`server-restart`, ``RelayStreamRegistry/interrupt(_:)``).
    var refusingUntil: NIODeadline?
    /// Until when every publish is refused as "already publishing" (`server-busy`).
    var busyUntil: NIODeadline?
    /// Until when the relay reads nothing from its publishers (`server-stall`): its own idle-publisher and
    /// unfinished-message deadlines do not count that window against them, so the phone's watchdog decides.
    var stallingUntil: NIODeadline?
    /// Where `server-move` sends clients (`rtmp://host:port`, the relay's second listener), nil: back to itself.
    var moveTarget: String?
    /// Publishers asked to move: a new publish of their stream takes it over instead of being refused.
    var movingPublishers: Set<ObjectIdentifier> = []
    /// Every open connection, for the operator's interruptions.
    var openConnections: [RelayConnectionHandler] { Array(connections.values) }

    init(eventLoop: any EventLoop, configuration: RelayConfiguration, emit: @escaping @Sendable (RelayEvent) -> Void) {
        self.eventLoop = eventLoop
        self.configuration = configuration
        self.emit = emit
        self.addresses = RelayAddressLimiter(limit: configuration.maxConnectionsPerAddress,
                                             limitsLoopback: configuration.limitsLoopback,
                                             loopbackExemptionLimit: configuration.loopbackExemptionLimit)
    }

    /// Starts the half-second tick: idle publishers, recorder flushes, periodic stats.
    func start() {
        guard !isShutDown else { return }
        tick = eventLoop.assumeIsolated().scheduleTask(in: .milliseconds(500)) { [self] in
            onTick()
            start()
        }
    }

    func report(_ event: RelayEvent) { emit(event) }

    // MARK: Connections

    func makeConnectionID() -> Int {
        defer { nextConnectionID += 1 }
        return nextConnectionID
    }

    /// Registers a new connection, or refuses it (reported, not registered) when its address is at
    /// ``RelayConfiguration/maxConnectionsPerAddress``; the handler closes a refused connection at once.
    func opened(_ handler: RelayConnectionHandler, address: String, remote: String) -> Bool {
        if let refusingUntil, NIODeadline.now() < refusingUntil { return false }     // restarting: not listening
        guard addresses.admit(address) else {
            emit(.connectionRejected(connection: handler.id, remote: remote,
                                     reason: .tooManyConnections(address: address, limit: addresses.limit ?? 0)))
            return false
        }
        connections[handler.id] = handler
        acceptPaused = false
        emit(.connectionOpened(connection: handler.id, remote: remote))
        return true
    }

    /// The connection is gone: its publish ends (players are told) and its plays stop.
    func closed(_ handler: RelayConnectionHandler) {
        guard connections.removeValue(forKey: handler.id) != nil else { return }
        movingPublishers.remove(ObjectIdentifier(handler))
        addresses.release(handler.address)
        for stream in Array(streams.values) {
            if stream.successor?.handler === handler { stream.successor = nil }
            if stream.publisher?.handler === handler {
                if stream.successor != nil { takeOver(stream) } else { unpublish(stream, reason: .disconnected) }
            }
            for player in Array(stream.players.values) where player.key.connection == handler.id {
                removePlayer(stream, player: player)
            }
        }
        dirty.removeAll { $0 === handler }
        emit(.connectionClosed(connection: handler.id, bytesIn: handler.bytesIn, bytesOut: handler.bytesOut))
        flushDirty()
    }

    /// NIO's AcceptBackoffHandler asks how long to stop accepting after `accept` failed: out of
    /// descriptors or memory, ``RelayConfiguration/acceptBackoff`` (reported once until a connection is
    /// accepted again) instead of retrying at once, which spun the loop at 100 % CPU (GitHub issue 14).
    func acceptFailed(_ error: IOError) -> TimeAmount? {
        if !acceptPaused {
            acceptPaused = true
            emit(.acceptPaused(reason: error.description, retryMilliseconds: Int(configuration.acceptBackoff.nanoseconds / 1_000_000),
                               openConnections: connections.count))
        }
        return configuration.acceptBackoff
    }

    func markDirty(_ handler: RelayConnectionHandler) {
        dirty.append(handler)
    }

    /// Hands every pending fan-out batch to its players, then flushes every connection written to since
    /// the last flush.
    func flushDirty() {
        deliverPendingBatches()
        guard !dirty.isEmpty else { return }
        // Two buffers alternate (as `pendingStreams` does): a copy emptied with `removeAll(keepingCapacity:)`
        // allocated a new buffer at every read burst, a malloc and a free per relayed message.
        var handlers = spareDirty
        spareDirty = []
        swap(&handlers, &dirty)
        for handler in handlers { handler.flushIfNeeded() }
        handlers.removeAll(keepingCapacity: true)
        spareDirty = handlers
    }

    // MARK: Publish

    /// Makes `handler` the publisher of `name`, or says why not (the name is live already).
    /// `recording` is how it is recorded (``RelayConfiguration/RecordMode``), `nil` for not at all.
    func publish(_ name: RelayStreamName, type: PublishType, recording recordingType: PublishType?, handler: RelayConnectionHandler,
                 streamID: UInt32) -> Result<String?, Refusal> {
        if let busyUntil, NIODeadline.now() < busyUntil {
            return .failure(Refusal(code: .publishBadName, description: "already publishing: the server still holds \(name)'s previous publisher"))
        }
        let stream = streams[name] ?? RelayStream(name: name, gopLimit: configuration.gopCacheLimit)
        // The move's new connection takes the stream over, once it sends media (``takeOver(_:)``).
        if let current = stream.publisher?.handler, movingPublishers.contains(ObjectIdentifier(current)), stream.successor == nil {
            stream.successor = (handler, streamID, type, recordingType, [])
            return .success(nil)
        }
        if stream.isPublished {
            return .failure(Refusal(code: .publishBadName, description: "\(name) is already being published"))
        }
        return .success(begin(stream, type: type, recording: recordingType, handler: handler, streamID: streamID))
    }

    /// A moved publisher's new connection becomes the stream's publisher: the old one's publish ends (players
    /// are told), the new one's begins, and what it sent before its first sample is relayed.
    func takeOver(_ stream: RelayStream) {
        guard let successor = stream.successor else { return }
        stream.successor = nil
        if let current = stream.publisher?.handler { movingPublishers.remove(ObjectIdentifier(current)) }
        // An `append` goes on in the same file with the same clock: the new connection carries the same
        // timeline on, which a reopened file would rebase to just after its last tag of either track.
        let continuing = successor.recording == .append ? stream.recorder : nil
        if continuing != nil { stream.recorder = nil }
        unpublish(stream, reason: .unpublished)
        _ = begin(stream, type: successor.type, recording: successor.recording, handler: successor.handler, streamID: successor.streamID,
                  continuing: continuing)
        guard let current = streams[stream.name] else { return }
        for message in successor.held { relay(message, in: current, from: successor.handler) }
    }

    /// Makes `handler` the publisher of `stream`; returns the recording's path.
    /// `continuing` is a moved publisher's recording, kept open (``takeOver(_:)``).
    private func begin(_ stream: RelayStream, type: PublishType, recording recordingType: PublishType?, handler: RelayConnectionHandler,
                       streamID: UInt32, continuing: RelayRecorder? = nil) -> String? {
        let name = stream.name
        register(stream)
        stream.publisher = (handler, streamID)
        stream.publishType = type
        stream.cache = RelayStreamCache(gopLimit: configuration.gopCacheLimit)
        stream.lastInput = .now()
        stream.receivedSinceTick = false
        stream.bytesIn = 0
        var recording: String?
        if let continuing {
            continuing.continueAfterTakeOver()
            stream.recorder = continuing
            recording = continuing.path
        } else if let recordingType, let directory = configuration.recordDirectory {
            do {
                let recorder = try RelayRecorder(directory: directory, name: name, type: recordingType)
                stream.recorder = recorder
                recording = recorder.path
                emit(.recordingStarted(stream: name.qualified, path: recorder.path, append: recorder.isAppend))
            } catch {
                let path = name.recordingURL(in: directory).path
                emit(.recordingFailed(stream: name.qualified, path: path, reason: error.description))
            }
        }
        for player in stream.players.values {
            player.handler.sendUserControl(.streamBegin(streamID: player.streamID))
            player.handler.sendStatus(RelayStatus.publishNotify(name), streamID: player.streamID)
        }
        emit(.publishStarted(stream: name.qualified, type: type, connection: handler.id, recording: recording))
        return recording
    }

    /// Ends `handler`'s publish of `name` (unpublish, deleteStream, or a closed socket).
    func unpublish(_ name: RelayStreamName, handler: RelayConnectionHandler, reason: RelayEvent.UnpublishReason) {
        guard let stream = streams[name] else { return }
        if stream.successor?.handler === handler {
            stream.successor = nil              // a move's new publish that never sent media
            return
        }
        guard stream.publisher?.handler === handler else { return }
        if stream.successor != nil { return takeOver(stream) }
        unpublish(stream, reason: reason)
    }

    private func unpublish(_ stream: RelayStream, reason: RelayEvent.UnpublishReason) {
        guard let publisher = stream.publisher else { return }
        deliverPending(stream)          // players get what was relayed before they are told it ended
        stream.publisher = nil
        closeRecorder(stream)
        for player in stream.players.values {
            player.handler.sendStatus(RelayStatus.unpublishNotify(stream.name), streamID: player.streamID)
            player.handler.sendUserControl(.streamEOF(streamID: player.streamID))
        }
        emit(.publishStopped(stream: stream.name.qualified, connection: publisher.handler.id, reason: reason, bytesIn: stream.bytesIn))
        emitStats(stream)
        stream.cache = RelayStreamCache(gopLimit: configuration.gopCacheLimit)
        if stream.players.isEmpty { unregister(stream) }
        flushDirty()
    }

    /// `name`'s stream when `handler` is its publisher now (not one a move replaced) or a move's new
    /// publisher, else nil: looked up once, when the publish is accepted; the connection then keeps it and
    /// asks ``publishes(_:by:)`` for each message (GitHub issue 31: hashing the name per message was a
    /// measurable part of the hop).
    func publishedStream(_ name: RelayStreamName, by handler: RelayConnectionHandler) -> RelayStream? {
        guard let stream = streams[name], publishes(stream, by: handler) else { return nil }
        return stream
    }

    /// Whether `stream` is still the registry's stream of its name and `handler` its publisher or a move's
    /// new publisher: what the name look-up in ``publishedStream(_:by:)`` would find, without hashing.
    func publishes(_ stream: RelayStream, by handler: RelayConnectionHandler) -> Bool {
        stream.isRegistered && (stream.publisher?.handler === handler || stream.successor?.handler === handler)
    }

    /// Headers a move's new publisher may send before its first sample (sequence headers, metadata).
    static let heldBeforeTakeOver = 16

    /// Relays one publisher message of `stream` (from ``publishedStream(_:by:)``): cache, recording, then
    /// every player's queue.
    func relay(_ message: RelayMediaMessage, in stream: RelayStream, from handler: RelayConnectionHandler) {
        if let successor = stream.successor, successor.handler === handler {
            let isSample = (message.kind == .audio || message.kind == .video) && !message.isSequenceHeader
            guard isSample else {
                if successor.held.count < Self.heldBeforeTakeOver { stream.successor?.held.append(message) }
                return
            }
            takeOver(stream)
        }
        guard stream.publisher?.handler === handler else { return }
        stream.bytesIn += UInt64(message.payload.readableBytes)
        stream.receivedSinceTick = true
        stream.cache.add(message)
        if let recorder = stream.recorder {
            do {
                try recorder.write(message)
            } catch {
                recordingStopped(stream, recorder, error)
            }
        }
        fanOut(message, in: stream)
    }

    // MARK: Play

    /// Starts a player: status, then (when live) metadata, sequence headers and the last GOP.
    func play(_ name: RelayStreamName, handler: RelayConnectionHandler, streamID: UInt32) {
        let stream = streams[name] ?? RelayStream(name: name, gopLimit: configuration.gopCacheLimit)
        register(stream)
        deliverPending(stream)          // the cache below already holds those messages: not twice
        handler.sendUserControl(.streamBegin(streamID: streamID))
        handler.sendStatus(RelayStatus.playReset(name), streamID: streamID)
        handler.sendStatus(RelayStatus.playStart(name), streamID: streamID)
        let player = RelayStream.Player(handler: handler, streamID: streamID)
        stream.add(player)
        if stream.isPublished {
            for message in stream.cache.joinMessages {
                deliver(chunks(message, streamID: streamID), kind: queueKind(message, hasVideo: stream.cache.hasVideo),
                        to: player, in: stream)
            }
        }
        emit(.playStarted(stream: name.qualified, connection: handler.id, waiting: !stream.isPublished))
    }

    func stopPlaying(_ name: RelayStreamName, handler: RelayConnectionHandler, streamID: UInt32) {
        let key = RelayStream.PlayerKey(connection: handler.id, streamID: streamID)
        guard let stream = streams[name], let player = stream.players[key] else { return }
        removePlayer(stream, player: player)
    }

    private func removePlayer(_ stream: RelayStream, player: RelayStream.Player) {
        player.handler.reconcileWrites()    // its count: every byte written for it so far
        stream.remove(player.key)
        emit(.playStopped(stream: stream.name.qualified, connection: player.key.connection, bytesOut: player.bytesOut,
                          droppedMessages: player.handler.droppedMessages))
        if stream.players.isEmpty && !stream.isPublished { unregister(stream) }
    }

    private func register(_ stream: RelayStream) {
        if let other = streams[stream.name], other !== stream { other.isRegistered = false }
        streams[stream.name] = stream
        stream.isRegistered = true
    }

    private func unregister(_ stream: RelayStream) {
        streams[stream.name] = nil
        stream.isRegistered = false
    }

    // MARK: Ticks, shutdown

    /// Ends every publish (players told, recordings closed) and closes every connection.
    func shutdown() {
        isShutDown = true
        tick?.cancel()
        tick = nil
        for stream in Array(streams.values) where stream.isPublished {
            unpublish(stream, reason: .serverStopping)
        }
        heldBatchTimer?.cancel()        // after the unpublishes, which hand out every held batch
        heldBatchTimer = nil
        for handler in Array(connections.values) { handler.close() }
    }

    private func onTick() {
        let now = NIODeadline.now()
        for handler in Array(connections.values) {
            handler.reconcileWrites()       // the stats below count what NIO wrote since the last tick
            handler.checkDeadlines(now: now)
        }
        for stream in Array(streams.values) {
            if let recorder = stream.recorder {
                do {
                    try recorder.checkInPlace()
                    try recorder.flush()
                } catch {
                    recordingStopped(stream, recorder, error)
                }
            }
            if stream.receivedSinceTick {
                stream.receivedSinceTick = false
                stream.lastInput = now
            }
            if let idle = configuration.idleTimeout, let publisher = stream.publisher, now - max(stream.lastInput, stallingUntil ?? stream.lastInput) > idle {
                unpublish(stream, reason: .idle)
                publisher.handler.close()
            }
        }
        if now - lastStats >= configuration.statsInterval {
            lastStats = now
            for stream in streams.values where stream.isPublished { emitStats(stream) }
        }
    }

    private func emitStats(_ stream: RelayStream) {
        let drops = stream.players.values.reduce(UInt64(0)) { $0 + $1.handler.droppedMessages }
        emit(.streamStats(stream: stream.name.qualified, bytesIn: stream.bytesIn, bytesOut: stream.bytesOut,
                          players: stream.players.count, droppedMessages: drops))
    }
}
