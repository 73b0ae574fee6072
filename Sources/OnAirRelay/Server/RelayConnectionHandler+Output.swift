import NIOCore
import OnAirRTMP

/// The connection's outgoing path: every byte goes through ``RelayPlayerQueue`` and is written only while
/// the channel is writable (NIO write-buffer water marks), so a peer that stops reading costs bounded memory.
///
/// Once the connection plays, bytes go straight to its socket (``RelayDirectSocket``, GitHub issue 31)
/// whenever NIO holds none of its unsent bytes; what the socket does not take then, and everything after it
/// until NIO has sent it all, goes through NIO's pipeline as before. So the order of bytes is the order of
/// writes, NIO's water marks and the queue's drop-to-keyframe still see a player that falls behind (its
/// socket fills, the rest lands in NIO's buffer), and a failed socket is closed by NIO the usual way.
extension RelayConnectionHandler {
    /// Writes `bytes` (whole relayed messages) for `player` at once if the peer keeps up — socket writable,
    /// nothing queued, not skipping to a keyframe — and says how; otherwise writes nothing. What goes
    /// through NIO is counted once NIO wrote it (``reconcileWrites()``); the caller counts what the socket took.
    /// Through NIO, flushes at once (with anything written before): the batch is the end of the burst for
    /// this peer, and flushing now saves touching 100 handlers a second time in ``RelayStreamRegistry/flushDirty()``.
    func writeIfKeepingUp(_ bytes: ByteBuffer, for player: RelayStream.Player) -> BatchWrite {
        guard let context, writable, queue.isEmpty, !queue.waitingForRandomAccess else { return .notKeepingUp }
        guard let rest = sendDirect(bytes, context: context) else {
            bytesOut += UInt64(bytes.readableBytes)
            return .direct
        }
        let sent = bytes.readableBytes - rest.readableBytes
        bytesOut += UInt64(sent)
        disarmAll()
        needsFlush = false              // if listed as dirty, its flushIfNeeded() is then a no-op
        writeThroughPipeline(rest, for: player, flush: true, context: context)
        return .throughNIO(sentDirectly: sent)
    }

    /// Queues bytes for the peer and writes what the socket takes now.
    func enqueue(_ item: RelayPlayerQueue.Item) -> RelayPlayerQueue.Outcome {
        guard let context else { return .dropped }
        if writable && queue.isEmpty && !queue.waitingForRandomAccess {
            write(item.bytes, for: item.player, context: context)     // the common case: nothing waiting, socket keeps up
            return .queued
        }
        disarmAll()                                     // queued bytes go first: the fast path must wait
        let outcome = queue.enqueue(item)
        drain()
        return outcome
    }

    func flushIfNeeded() {
        guard needsFlush, let context else { return }
        needsFlush = false
        context.flush()
        reconcileWrites()               // NIO wrote what the socket took during the flush
    }

    func sendControl(_ message: RTMPMessage, streamID: UInt32) {
        guard let context else { return }
        let raw = message.raw(messageStreamID: streamID)
        var out = context.channel.allocator.buffer(capacity: raw.payload.readableBytes + 32)
        encoder.encode(raw, into: &out)
        _ = enqueue(RelayPlayerQueue.Item(bytes: out, kind: .control))
        let limit = registry.configuration.maxQueuedControlBytes
        if queue.queuedControlBytes > limit { reject(.controlQueueFull(bytes: queue.queuedControlBytes, limit: limit)) }
    }

    func drain() {
        guard let context else { return }
        while writable, let item = queue.dequeue() {
            write(item.bytes, for: item.player, context: context)
        }
    }

    /// Finds and duplicates the connection's socket for direct writes (``RelayDirectSocket``), when the
    /// configuration allows it; found once, when the connection first plays (publishers and idle connections
    /// never pay for the search).
    func openDirectSocket() {
        guard direct == nil, registry.configuration.directWrites, let context,
              let local = context.localAddress, let remote = context.remoteAddress else { return }
        direct = RelayDirectSocket.duplicate(local: local, remote: remote)
    }

    /// Whether this connection writes straight to its socket (tests).
    var writesDirectly: Bool { direct?.isOpen == true }

    /// Writes `bytes` for `player` (nil: the connection's own), straight to the socket when it can, the
    /// rest through NIO's pipeline, flushed at the end of the burst.
    private func write(_ bytes: ByteBuffer, for player: RelayStream.Player?, context: ChannelHandlerContext) {
        guard let rest = sendDirect(bytes, context: context) else {
            bytesOut += UInt64(bytes.readableBytes)
            player?.credit(bytes.readableBytes)
            return
        }
        let sent = bytes.readableBytes - rest.readableBytes
        bytesOut += UInt64(sent)
        player?.credit(sent)
        disarmAll()
        writeThroughPipeline(rest, for: player, flush: false, context: context)
        if !needsFlush {
            needsFlush = true
            registry.markDirty(self)
        }
    }

    /// Hands `bytes` to NIO's pipeline; they count for this connection and `player` once NIO has written
    /// them (``RelayPipelineLedger``), not before: what NIO holds when the connection closes never leaves.
    func writeThroughPipeline(_ bytes: ByteBuffer, for player: RelayStream.Player?, flush: Bool, context: ChannelHandlerContext) {
        ledger.handed(bytes.readableBytes, for: player)
        pipelineMayHoldBytes = true
        if flush {
            context.writeAndFlush(wrapOutboundOut(bytes), promise: nil)
            reconcileWrites()
        } else {
            context.write(wrapOutboundOut(bytes), promise: nil)
        }
    }

    /// Credits what NIO has written of the pipeline's bytes since it was last asked, to this connection and
    /// to the players they were for. Asked after every flush (NIO writes what the socket takes then), before
    /// the relay closes the connection, at the end of a read (NIO reads the peer's EOF, then closes), on an
    /// error, when NIO drains below its water mark, and on the registry's tick. What NIO writes when the
    /// socket drains and then loses to a reset before any of those goes uncounted: it may never have arrived.
    func reconcileWrites() {
        guard !ledger.isEmpty, let context,
              let buffered = try? context.channel.syncOptions?.getOption(.bufferedWritableBytes) else { return }
        reconcile(buffered: buffered)
    }

    private func reconcile(buffered: Int) {
        ledger.reconcile(buffered: buffered) { count, player in
            bytesOut += UInt64(count)
            player?.credit(count)
        }
    }

    /// Sends `bytes` straight to the socket when that keeps them in order (a direct socket, NIO holding
    /// nothing of this connection) and returns what is left for NIO's pipeline: nil when the socket took
    /// it all, the unsent tail when its buffer filled, all of it when the socket failed (NIO then meets the
    /// error and closes the channel) or direct writes are not possible now.
    private func sendDirect(_ bytes: ByteBuffer, context: ChannelHandlerContext) -> ByteBuffer? {
        guard let direct, pipelineIsEmpty(context) else { return bytes }
        switch bytes.withUnsafeReadableBytes({ direct.send($0) }) {
        case .sent(let count) where count == bytes.readableBytes:
            return nil
        case .sent(let count):
            var rest = bytes
            rest.moveReaderIndex(forwardBy: count)
            return rest
        case .wouldBlock, .failed:
            return bytes
        }
    }

    /// Whether NIO has sent every byte written through the pipeline (asked of NIO only after such a write).
    private func pipelineIsEmpty(_ context: ChannelHandlerContext) -> Bool {
        guard pipelineMayHoldBytes else { return true }
        guard let buffered = try? context.channel.syncOptions?.getOption(.bufferedWritableBytes), buffered == 0 else {
            return false
        }
        reconcile(buffered: 0)
        pipelineMayHoldBytes = false
        return true
    }
}
