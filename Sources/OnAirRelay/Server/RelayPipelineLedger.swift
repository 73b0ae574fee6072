import NIOCore

/// The bytes a connection handed to NIO's pipeline that it has not yet seen NIO write, oldest first, each
/// with the player it was for — so a count of relayed bytes is what reached the socket, not what was asked.
///
/// Why: a player that falls behind has up to NIO's high water mark (256 KiB) waiting in the channel. When
/// the connection closes, NIO fails those writes and not a byte of them leaves; counted when handed over,
/// they showed in `connectionClosed`, `playStopped` and the streams' figures as relayed. NIO writes its
/// buffer in order and says how many bytes it still holds (`bufferedWritableBytes`, partial writes
/// included), so everything handed over before those was written: ``reconcile(buffered:credit:)`` credits
/// it, to the writes' owners, in order. No promise per write is needed on the slow path.
struct RelayPipelineLedger<Owner: AnyObject> {
    private struct Entry {
        var count: Int
        var owner: Owner?
    }

    private var entries = CircularBuffer<Entry>()
    /// Bytes of the oldest entry already credited (NIO wrote part of it).
    private var headCredited = 0
    /// Handed to the pipeline and not yet credited.
    private(set) var unconfirmedBytes = 0

    var isEmpty: Bool { entries.isEmpty }

    /// Records `count` bytes written into the pipeline for `owner` (nil: the connection's own, as control
    /// messages and the handshake).
    mutating func handed(_ count: Int, for owner: Owner?) {
        guard count > 0 else { return }
        entries.append(Entry(count: count, owner: owner))
        unconfirmedBytes += count
    }

    /// NIO holds `buffered` bytes of this connection: every byte handed over before them was written.
    /// Calls `credit` once per write (or part of one) newly known to be written, oldest first.
    mutating func reconcile(buffered: Int, credit: (Int, Owner?) -> Void) {
        var written = unconfirmedBytes - min(max(buffered, 0), unconfirmedBytes)
        while written > 0, let head = entries.first {
            let remaining = head.count - headCredited
            let taken = min(remaining, written)
            credit(taken, head.owner)
            written -= taken
            unconfirmedBytes -= taken
            if taken == remaining {
                entries.removeFirst()
                headCredited = 0
            } else {
                headCredited += taken
            }
        }
    }

    /// The connection closed: what NIO still held was never written.
    mutating func abandon() {
        entries.removeAll()
        headCredited = 0
        unconfirmedBytes = 0
    }
}
