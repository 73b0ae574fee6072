import NIOCore

/// The bytes waiting for one connection beyond what its socket takes, bounded, with nginx-style
/// "drop to the next keyframe" when a player falls behind.
///
/// The owner hands every outgoing item to ``enqueue(_:)`` and writes ``dequeue()``'d items while the NIO
/// channel is writable, so neither NIO's outbound buffer (held under the write-buffer water mark) nor this
/// queue (held under ``limit``) grows without bound, and a player that stops reading never holds back
/// the publisher or the other players. A value type: its policy is tested as a table, without sockets.
///
/// Policy, when an item does not fit: queued audio/video is discarded (it is stale anyway), and the
/// player skips media until the next random-access point (a video keyframe; any audio frame when the
/// stream has no video), which restarts decoding cleanly. Control items (status, user control, command
/// answers) are never dropped: the chunk encoder's header state and the player's view of the stream
/// depend on them. Sequence headers and data messages are kept too unless the queue is past twice its
/// limit — a publisher cannot use them to make it grow without bound. The owner closes a connection whose
/// unread control items pass its own cap (``queuedControlBytes``).
///
/// Sizes stand for the memory an item holds, not just its bytes: a fan-out slice shares the storage of a
/// whole burst, so a slice much smaller than its storage is copied out before it is queued, and no queued
/// item keeps more than twice its bytes plus 1 KiB alive (GitHub issue 14: a queue counting 2 MB of slices
/// pinned gigabytes of batches).
struct RelayPlayerQueue {
    enum Kind: Sendable, Equatable {
        /// Protocol and status messages; never dropped.
        case control
        /// Sequence headers and data messages (`onMetaData`, `publisherBackground` …).
        case essential
        /// Audio or video; `randomAccess` marks where a player may start decoding.
        case media(randomAccess: Bool)
    }

    struct Item {
        var bytes: ByteBuffer
        var kind: Kind
        /// The player these bytes are relayed to, credited when they are written (``RelayStream/Player/credit(_:)``),
        /// never when queued: a queued item may still be dropped, and a player's and its stream's byte counts say
        /// what the wire carried. nil for the connection's own messages (status, control). Weak: the player holds
        /// its handler, whose queue holds this item.
        weak var player: RelayStream.Player?

        init(bytes: ByteBuffer, kind: Kind, player: RelayStream.Player? = nil) {
            self.bytes = bytes
            self.kind = kind
            self.player = player
        }
    }

    /// What ``enqueue(_:)`` did.
    enum Outcome: Sendable, Equatable {
        case queued
        case dropped
        /// The queue overflowed with this item: the player now waits for a keyframe.
        case startedDropping
    }

    let limit: Int
    private var items = CircularBuffer<Item>(initialCapacity: 64)
    private(set) var queuedBytes = 0
    /// The part of ``queuedBytes`` that is control items.
    private(set) var queuedControlBytes = 0
    private(set) var waitingForRandomAccess = false
    private(set) var droppedMessages: UInt64 = 0
    private(set) var droppedBytes: UInt64 = 0

    init(limit: Int) {
        self.limit = max(1, limit)
    }

    var isEmpty: Bool { items.isEmpty }
    var count: Int { items.count }

    mutating func enqueue(_ item: Item) -> Outcome {
        let size = item.bytes.readableBytes
        switch item.kind {
        case .control:
            append(item)
            return .queued
        case .essential:
            guard queuedBytes + size <= 2 * limit else { return drop(size) }
            append(item)
            return .queued
        case .media(let randomAccess):
            if waitingForRandomAccess {
                guard randomAccess, queuedBytes + size <= limit else { return drop(size) }
                waitingForRandomAccess = false
                append(item)
                return .queued
            }
            if queuedBytes + size <= limit {
                append(item)
                return .queued
            }
            discardQueuedMedia()
            waitingForRandomAccess = true
            if randomAccess, queuedBytes + size <= limit {
                waitingForRandomAccess = false
                append(item)
            } else {
                _ = drop(size)
            }
            return .startedDropping
        }
    }

    mutating func dequeue() -> Item? {
        guard let item = items.popFirst() else { return nil }
        queuedBytes -= item.bytes.readableBytes
        if item.kind == .control { queuedControlBytes -= item.bytes.readableBytes }
        return item
    }

    private mutating func append(_ item: Item) {
        var item = item
        let size = item.bytes.readableBytes
        if item.bytes.storageCapacity > Self.maxPinned(size) {
            var copy = ByteBufferAllocator().buffer(capacity: size)
            copy.writeImmutableBuffer(item.bytes)
            item.bytes = copy
        }
        queuedBytes += item.bytes.readableBytes
        if item.kind == .control { queuedControlBytes += item.bytes.readableBytes }
        items.append(item)
    }

    /// The most storage a queued item of `size` bytes may keep alive before it is copied out.
    static func maxPinned(_ size: Int) -> Int { 2 * size + 1024 }

    private mutating func drop(_ size: Int) -> Outcome {
        droppedMessages += 1
        droppedBytes += UInt64(size)
        return .dropped
    }

    private mutating func discardQueuedMedia() {
        var kept = CircularBuffer<Item>(initialCapacity: items.count)
        for item in items {
            if case .media = item.kind {
                _ = drop(item.bytes.readableBytes)
                queuedBytes -= item.bytes.readableBytes
            } else {
                kept.append(item)
            }
        }
        items = kept
    }
}
