import NIOCore

/// Fan-out: how relayed messages reach players (GitHub issue 5).
///
/// Each message is chunked once into the first group's ``RelayFanoutBatch`` and copied, message stream ID
/// rewritten, into any other group's; at the end of
/// the publisher's read burst (``RelayStreamRegistry/flushDirty()``) each player gets the batch as one write
/// when it keeps up, or message by message through its ``RelayPlayerQueue`` when it is behind. A batch of
/// nothing but audio frames may wait up to ``RelayConfiguration/audioMergeWindow`` for the next video
/// frame, so that a 30 fps stream with AAC costs one write per player per video frame instead of ~1.4.
/// Anything sent to a stream's players outside the fan-out (status, join messages) first hands out its
/// pending batch, so players see messages in the order the relay received them.
extension RelayStreamRegistry {
    /// Adds one publisher message to every group's batch of `stream`.
    func fanOut(_ message: RelayMediaMessage, in stream: RelayStream) {
        guard !stream.groups.isEmpty, message.kind != .clearMetadata else { return }
        let kind = queueKind(message, hasVideo: stream.cache.hasVideo)
        let first = stream.groups[0]
        first.batch.append(message, kind: kind, chunkSize: configuration.chunkSize)
        if stream.groups.count > 1, let item = first.batch.lastItem {
            for group in stream.groups.dropFirst() { group.batch.append(copyOf: item, from: first.batch) }
        }
        stream.hasPendingBatch = true
        if message.kind != .audio || message.isSequenceHeader { stream.pendingBatchIsUrgent = true }
        if !stream.isListedAsPending {
            stream.isListedAsPending = true
            pendingStreams.append(stream)
        }
    }

    /// Hands out every pending batch, except audio-only batches younger than the merge window, which stay
    /// listed and are handed out by a later burst or, at the window's end, by a timer.
    func deliverPendingBatches() {
        guard !pendingStreams.isEmpty else { return }
        var streams = spareStreams
        spareStreams = []
        swap(&streams, &pendingStreams)        // held batches go back on the (empty) other buffer
        defer {
            streams.removeAll(keepingCapacity: true)
            spareStreams = streams
        }
        var now: NIODeadline?
        for stream in streams {
            stream.isListedAsPending = false
            guard stream.hasPendingBatch else { continue }
            if !stream.pendingBatchIsUrgent, let window = configuration.audioMergeWindow {
                let current = now ?? .now()
                now = current
                let since = stream.pendingHeldSince ?? current
                if current - since < window {
                    stream.pendingHeldSince = since
                    stream.isListedAsPending = true
                    pendingStreams.append(stream)
                    armHeldBatchTimer(at: since + window)
                    continue
                }
            }
            deliverPending(stream)
        }
    }

    /// Gives each player of `stream` its group's batch: whole when it keeps up, message by message through
    /// its queue when it is behind.
    func deliverPending(_ stream: RelayStream) {
        guard stream.hasPendingBatch else { return }
        stream.hasPendingBatch = false
        stream.pendingBatchIsUrgent = false
        stream.pendingHeldSince = nil
        for group in stream.groups where !group.batch.isEmpty {
            let batch = group.batch.take()
            let size = UInt64(batch.bytes.readableBytes)
            let players = group.players
            let generation = group.generation
            // What the sockets took now; what NIO's pipeline takes counts once NIO wrote it (the player's credit).
            var written: UInt64 = 0
            batch.bytes.withUnsafeReadableBytes { bytes in
                for index in players.indices {
                    // Armed: one send(2) from the slot (the group unchanged since the loop began, so the
                    // slot is still this player's).
                    if group.generation == generation, group.slots[index].descriptor >= 0 {
                        switch sendArmed(bytes, batch: batch.bytes, group: group, index: index, players: players) {
                        case .whole:
                            written += size
                            continue
                        case .partly(let sent):
                            written += UInt64(sent)     // the slot's share is settled, the rest is in the pipeline
                            continue
                        case .nothing:
                            break           // disarmed: the handler's path decides
                        }
                    }
                    let player = players[index]
                    switch player.handler.writeIfKeepingUp(batch.bytes, for: player) {
                    case .direct:
                        player.bytesOut += size
                        player.handler.arm(player)
                        written += size
                    case .throughNIO(let sent):
                        player.bytesOut += UInt64(sent)
                        written += UInt64(sent)
                    case .notKeepingUp:
                        for item in batch.items { deliver(batch.slice(item), kind: item.kind, to: player, in: stream) }
                    }
                }
            }
            stream.bytesOut += written
            group.batch.reuse(consume batch)
        }
    }

    /// What ``sendArmed(_:batch:group:index:players:)`` did.
    private enum ArmedSend { case whole, partly(sent: Int), nothing }

    /// The fast path to an armed player (`RelayConnectionHandler+Fanout.swift`): one `send(2)` of the batch
    /// from its slot. `.whole`: the slot counts the bytes. `.partly`: the rest went through NIO
    /// (``RelayConnectionHandler/writeRest(_:for:)``, which disarms and settles the slot). `.nothing` (socket
    /// full or failed): the player is disarmed and nothing written.
    private func sendArmed(
        _ bytes: UnsafeRawBufferPointer, batch: ByteBuffer, group: RelayStream.Group, index: Int, players: [RelayStream.Player]
    ) -> ArmedSend {
        // The player object is read only off the common path: even retaining it costs a cache miss.
        switch RelayDirectSocket.send(bytes, to: group.slots[index].descriptor) {
        case .sent(let count) where count == bytes.count:
            group.slots[index].bytes += UInt64(count)
            return .whole
        case .sent(let count):
            group.slots[index].bytes += UInt64(count)
            var rest = batch
            rest.moveReaderIndex(forwardBy: count)
            players[index].handler.writeRest(rest, for: players[index])
            return .partly(sent: count)
        case .wouldBlock, .failed:
            players[index].handler.disarmAll()
            return .nothing
        }
    }

    /// One message through a player's queue (join messages, and batches for players that are behind).
    func deliver(_ bytes: ByteBuffer, kind: RelayPlayerQueue.Kind, to player: RelayStream.Player, in stream: RelayStream) {
        // Counted when written (``RelayStream/Player/credit(_:)``), not here: a queued item may be dropped.
        switch player.handler.enqueue(RelayPlayerQueue.Item(bytes: bytes, kind: kind, player: player)) {
        case .queued:
            break
        case .startedDropping:
            emit(.playerDropping(stream: stream.name.qualified, connection: player.key.connection,
                                 droppedMessages: player.handler.droppedMessages))
        case .dropped:
            break
        }
    }

    func chunks(_ message: RelayMediaMessage, streamID: UInt32) -> ByteBuffer {
        RelayChunkWriter.chunks(
            typeID: message.typeID, timestamp: message.playerTimestamp, payload: message.payload, messageStreamID: streamID,
            chunkSize: configuration.chunkSize, allocator: ByteBufferAllocator())
    }

    /// Players whose slot is armed, over every stream (``RelayServer/armedPlayerCount()``).
    func armedPlayerCount() -> Int {
        streams.values.reduce(0) { count, stream in
            count + stream.groups.reduce(0) { $0 + $1.slots.filter { $0.descriptor >= 0 }.count }
        }
    }

    func queueKind(_ message: RelayMediaMessage, hasVideo: Bool) -> RelayPlayerQueue.Kind {
        switch message.kind {
        case .audio, .video:
            message.isSequenceHeader ? .essential : .media(randomAccess: message.isRandomAccessPoint(streamHasVideo: hasVideo))
        case .metadata, .data, .clearMetadata:
            .essential
        }
    }

    /// One timer for the oldest held batch: when it fires, that batch is due and goes out; younger ones
    /// re-arm it for their own deadline, so audio never waits longer than the window.
    private func armHeldBatchTimer(at deadline: NIODeadline) {
        guard heldBatchTimer == nil else { return }
        heldBatchTimer = eventLoop.assumeIsolated().scheduleTask(deadline: deadline) { [self] in
            heldBatchTimer = nil
            flushDirty()
        }
    }
}
