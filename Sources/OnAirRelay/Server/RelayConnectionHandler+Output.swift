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
    /// Writes `bytes` (whole relayed messages) at once if the peer keeps up — socket writable, nothing
    /// queued, not skipping to a keyframe — and returns true; otherwise writes nothing and returns false.
    /// Through NIO, flushes at once (with anything written before): the batch is the end of the burst for
    /// this peer, and flushing now saves touching 100 handlers a second time in ``RelayStreamRegistry/flushDirty()``.
    func writeIfKeepingUp(_ bytes: ByteBuffer) -> BatchWrite {
        guard let context, writable, queue.isEmpty, !queue.waitingForRandomAccess else { return .notKeepingUp }
        bytesOut += UInt64(bytes.readableBytes)
        guard let rest = sendDirect(bytes, context: context) else { return .direct }
        disarmAll()
        needsFlush = false              // if listed as dirty, its flushIfNeeded() is then a no-op
        pipelineMayHoldBytes = true
        context.writeAndFlush(wrapOutboundOut(rest), promise: nil)
        return .throughNIO
    }

    /// Queues bytes for the peer and writes what the socket takes now.
    func enqueue(_ item: RelayPlayerQueue.Item) -> RelayPlayerQueue.Outcome {
        guard let context else { return .dropped }
        if writable && queue.isEmpty && !queue.waitingForRandomAccess {
            write(item.bytes, context: context)         // the common case: nothing waiting, socket keeps up
            item.player?.credit(item.bytes.readableBytes)
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
            write(item.bytes, context: context)
            item.player?.credit(item.bytes.readableBytes)
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

    private func write(_ bytes: ByteBuffer, context: ChannelHandlerContext) {
        bytesOut += UInt64(bytes.readableBytes)
        guard let rest = sendDirect(bytes, context: context) else { return }
        disarmAll()
        pipelineMayHoldBytes = true
        context.write(wrapOutboundOut(rest), promise: nil)
        if !needsFlush {
            needsFlush = true
            registry.markDirty(self)
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
        pipelineMayHoldBytes = false
        return true
    }
}
