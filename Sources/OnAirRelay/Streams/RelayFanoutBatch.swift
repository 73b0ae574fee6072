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
            typeID: message.typeID, timestamp: message.playerTimestamp, payload: message.payload,
            messageStreamID: messageStreamID, chunkSize: chunkSize, into: &bytes)
        items.append(Item(offset: start, length: bytes.writerIndex - start, kind: kind))
    }

    /// Appends the message `item` of `other` (a batch of the same stream for another message stream ID):
    /// its chunks are copied and only the message stream ID of its format-0 header is rewritten, so a
    /// stream played on several message stream IDs chunks each message once, not once per ID (GitHub
    /// issue 14: one connection playing on 5000 IDs made the relay chunk every message 5000 times).
    mutating func append(copyOf item: Item, from other: RelayFanoutBatch) {
        let start = bytes.writerIndex
        var chunks = other.slice(item)
        bytes.writeBuffer(&chunks)
        // RelayChunkWriter's chunk streams (4, 6, 8) take a 1-byte basic header; the message stream ID
        // follows the 3-byte timestamp, 3-byte length and 1-byte type (RTMP spec §5.3.1.2.1), little-endian.
        bytes.setInteger(messageStreamID, at: start + 1 + 7, endianness: .little)
        items.append(Item(offset: start, length: item.length, kind: item.kind))
    }

    /// The last message appended.
    var lastItem: Item? { items.last }

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

    /// A delivered batch larger than this is not kept for reuse: a keyframe's buffer would stay allocated
    /// for every group between keyframes.
    static let reuseLimit = 256 << 10

    /// Takes a delivered batch (``take()``) back as this empty one, so the next burst writes into its
    /// buffer and item array instead of allocating both (three mallocs and frees per relayed message).
    /// Safe whoever still holds its bytes: a player's queue or NIO's pending writes keep their reference,
    /// and then `clear()` gives this batch fresh storage instead of writing over theirs (copy on write).
    mutating func reuse(_ delivered: consuming RelayFanoutBatch) {
        guard items.isEmpty, delivered.messageStreamID == messageStreamID, delivered.bytes.capacity <= Self.reuseLimit else { return }
        var batch = delivered
        batch.bytes.clear()
        batch.items.removeAll(keepingCapacity: true)
        self = batch
    }
}
