import NIOCore
import OnAirRTMP

/// An aggregate's body (RTMP spec §7.1.6) read a second time, by hand from the spec and without
/// `RTMPAggregateMessage`, so the fuzzer can tell the splitter's answer right from wrong: each sub-message is
/// an FLV tag header (FLV spec E.4.1: TagType, DataSize UI24, Timestamp UI24 + TimestampExtended UI8,
/// StreamID UI24), DataSize bytes of body and a back pointer (UI32) of 11 + DataSize.
struct AggregateReference {
    struct Sub {
        var typeID: UInt8
        var timestamp: UInt32
        var body: ArraySlice<UInt8>
    }

    /// The sub-messages, or nil when the body is not a run of at most `limit` whole ones, none an aggregate.
    static func read(_ bytes: [UInt8], limit: Int) -> [Sub]? {
        var subs: [Sub] = []
        var at = 0
        while at < bytes.count {
            guard subs.count < limit, bytes.count - at >= 15 else { return nil }
            let size = Int(bytes[at + 1]) << 16 | Int(bytes[at + 2]) << 8 | Int(bytes[at + 3])
            guard bytes[at] != RTMPMessageType.aggregate.rawValue, bytes.count - at - 15 >= size else { return nil }
            let back = bytes[(at + 11 + size)..<(at + 15 + size)].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
            guard back == UInt32(11 + size) else { return nil }
            let timestamp = UInt32(bytes[at + 7]) << 24 | UInt32(bytes[at + 4]) << 16 | UInt32(bytes[at + 5]) << 8 | UInt32(bytes[at + 6])
            subs.append(Sub(typeID: bytes[at], timestamp: timestamp, body: bytes[(at + 11)..<(at + 11 + size)]))
            at += 15 + size
        }
        return subs
    }

    /// Traps unless `received` (the client's split of the aggregate `raw`) is what the spec says: every
    /// sub-message, in order, with its type, its bytes, the aggregate's streams and the §7.1.6 timestamp
    /// (the first at the aggregate's, the rest at their distance from it, modulo 2³²); or, for a body the
    /// spec refuses, the aggregate skipped whole.
    static func check(_ received: [RTMPReceivedMessage], of raw: RTMPRawMessage) {
        let bytes = Array(raw.payload.readableBytesView)
        guard let subs = read(bytes, limit: RTMPAggregateMessage.Limits().maxSubMessages) else {
            guard received.count == 1, case .skipped(let skipped, _) = received[0], skipped == raw else {
                preconditionFailure("an aggregate the spec refuses was split into \(received.count) messages")
            }
            return
        }
        precondition(received.count == subs.count, "the aggregate split into \(received.count) messages, not its \(subs.count)")
        for (item, sub) in zip(received, subs) {
            let message = item.raw
            precondition(message.typeID == sub.typeID && message.payload.readableBytesView.elementsEqual(sub.body), "a sub-message's type or bytes changed")
            precondition(message.messageStreamID == raw.messageStreamID && message.chunkStreamID == raw.chunkStreamID, "a sub-message left the aggregate's streams")
            precondition(message.timestamp == raw.timestamp &+ (sub.timestamp &- subs[0].timestamp), "a sub-message's timestamp is not renormalised (§7.1.6)")
        }
    }
}
