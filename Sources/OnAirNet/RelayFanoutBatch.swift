import NIOCore

/// The messages a publisher's read burst relays, chunked once into one buffer for every player that plays
/// on the same message stream ID (GitHub issue 5: fan-out CPU).
///
/// Writing each message to each player costs a trip through NIO's pipeline and pending-write queue per
/// message per player; with 100 players that bookkeeping, not the copying, was most of the relay's
/// user-space CPU. A batch is handed to a player that keeps up as one `ByteBuffer` (one pipeline write, one
/// `write(2)` at the burst's flush); a player that is behind gets it message by message — slices of the
/// same storage — so ``RelayPlayerQueue`` still decides per message what to keep or drop.
///
/// The batch is delivered in the same event-loop turn as the read burst (``RelayStreamRegistry/flushDirty()``,
/// before the flush that was already there), so batching adds no latency.
struct RelayFanoutBatch {
    /// One relayed message inside ``bytes``.
    struct Item {
        var offset: Int
        var length: Int
        var kind: RelayPlayerQueue.Kind
    }

    let messageStreamID: UInt32
    private(set) var bytes: ByteBuffer
    private(set) var items: [Item] = []

    init(messageStreamID: UInt32) {
        self.messageStreamID = messageStreamID
        self.bytes = ByteBuffer()
    }

    var isEmpty: Bool { items.isEmpty }

    /// Chunks `message` (format 0 + format 3, see ``RelayChunkWriter``) onto the end of the batch.
    mutating func append(_ message: RelayMediaMessage, kind: RelayPlayerQueue.Kind, chunkSize: Int) {
        let start = bytes.writerIndex
        RelayChunkWriter.write(
            typeID: message.typeID, timestamp: message.timestamp, payload: message.payload,
            messageStreamID: messageStreamID, chunkSize: chunkSize, into: &bytes)
        items.append(Item(offset: start, length: bytes.writerIndex - start, kind: kind))
    }

    /// One message's chunks, sharing the batch's storage.
    func slice(_ item: Item) -> ByteBuffer {
        bytes.getSlice(at: item.offset, length: item.length)!
    }

    /// Hands the batch out and starts an empty one: players keep references to the old storage, so it is
    /// never written again.
    mutating func take() -> RelayFanoutBatch {
        let taken = self
        self = RelayFanoutBatch(messageStreamID: messageStreamID)
        return taken
    }
}
