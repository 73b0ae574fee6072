import NIOCore

/// An RTMP Aggregate Message (RTMP spec §7.1.6, message type 22): one message that carries a run of
/// sub-messages, each written as an FLV tag (FLV spec E.4.1: TagType, DataSize UI24, Timestamp UI24 +
/// TimestampExtended UI8, StreamID UI24, the body) followed by a back pointer (UI32) that holds the size of
/// that sub-message *including* its 11-byte header (the FLV file's PreviousTagSize).
///
/// Red5 and Wowza send media to players this way; ffmpeg (`rtmpproto.c`, `handle_metadata`) and nginx-rtmp
/// (`ngx_rtmp_aggregate_message_handler`) split them back into plain messages, and so does OnAir.
///
/// Timestamps (§7.1.6): "the difference between the timestamps of the aggregate message and the first
/// sub-message is the offset used to renormalize the timestamps of the sub-messages to the stream
/// timescale". So the first sub-message takes the aggregate's timestamp and each later one keeps its
/// distance from the first, modulo 2^32 (§5.3.1.2): this reads both styles servers write — inner
/// timestamps counted from 0 in each aggregate, and absolute ones (Wowza, where the first equals the
/// aggregate's) — the way ffmpeg does. The sub-messages take the aggregate's message stream ID, which
/// "overrides the message stream IDs for the sub-messages" (§7.1.6), and its chunk stream.
///
/// Nothing inside is trusted: every DataSize must fit in what is left of the aggregate, every back pointer
/// must equal 11 + DataSize, at most ``Limits/maxSubMessages`` are read, and an aggregate inside an
/// aggregate is refused (no recursion).
public struct RTMPAggregateMessage: Sendable, Equatable {
    /// The FLV tag header before each sub-message's body: TagType, DataSize, Timestamp, StreamID (E.4.1).
    public static let subHeaderSize = FLVTag.headerSize
    /// The back pointer after each sub-message (§7.1.6).
    public static let backPointerSize = 4

    /// Bounds on what one aggregate may hold.
    public struct Limits: Sendable, Equatable {
        /// Sub-messages in one aggregate; a real one holds a few hundred milliseconds of media (tens of
        /// tags), so 4096 is generous while bounding the work one message can ask for.
        public var maxSubMessages: Int

        public init(maxSubMessages: Int = 4096) {
            self.maxSubMessages = maxSubMessages
        }
    }

    /// Why an aggregate's body is not a run of whole sub-messages.
    public enum Error: Swift.Error, Equatable, CustomStringConvertible {
        /// Fewer than a header and a back pointer are left at `offset`.
        case truncatedHeader(offset: Int, remaining: Int)
        /// A sub-message's DataSize runs past the aggregate's end.
        case subMessageTooLong(offset: Int, dataSize: Int, remaining: Int)
        /// A back pointer that is not 11 + DataSize of the sub-message before it.
        case backPointerMismatch(offset: Int, expected: UInt32, found: UInt32)
        /// More than ``Limits/maxSubMessages`` sub-messages.
        case tooManySubMessages(limit: Int)
        /// A sub-message that is itself an aggregate.
        case nestedAggregate(offset: Int)

        public var description: String {
            switch self {
            case let .truncatedHeader(offset, remaining):
                "aggregate message (RTMP spec §7.1.6) ends inside a sub-message header at byte \(offset) (\(remaining) bytes left, 15 needed)"
            case let .subMessageTooLong(offset, dataSize, remaining):
                "aggregate message (RTMP spec §7.1.6): the sub-message at byte \(offset) says \(dataSize) bytes but only \(remaining) are left"
            case let .backPointerMismatch(offset, expected, found):
                "aggregate message (RTMP spec §7.1.6): the back pointer at byte \(offset) is \(found), not the \(expected) bytes of the sub-message before it"
            case let .tooManySubMessages(limit):
                "aggregate message (RTMP spec §7.1.6) holds more than \(limit) sub-messages"
            case let .nestedAggregate(offset):
                "aggregate message (RTMP spec §7.1.6) holds another aggregate at byte \(offset)"
            }
        }
    }

    /// One sub-message as written inside the aggregate, before renormalisation.
    public struct SubMessage: Sendable, Equatable {
        public var typeID: UInt8
        /// The timestamp written inside the aggregate (TimestampExtended as the high byte).
        public var timestamp: UInt32
        public var body: ByteBuffer
    }

    /// The sub-messages, as plain RTMP messages with renormalised timestamps.
    public var messages: [RTMPRawMessage]

    /// Splits `raw` (a whole message of type 22) into plain messages.
    public init(_ raw: RTMPRawMessage, limits: Limits = .init()) throws(Error) {
        var body = raw.payload
        let start = body.readerIndex
        var subMessages: [SubMessage] = []
        while body.readableBytes > 0 {
            let offset = body.readerIndex - start
            guard subMessages.count < limits.maxSubMessages else { throw .tooManySubMessages(limit: limits.maxSubMessages) }
            guard let sub = try Self.decodeSubMessage(from: &body, offset: offset) else {
                // The aggregate is whole: what is missing will never come, so the size was a lie.
                guard body.readableBytes >= Self.subHeaderSize + Self.backPointerSize, let dataSize = Self.dataSize(in: body) else {
                    throw .truncatedHeader(offset: offset, remaining: body.readableBytes)
                }
                throw .subMessageTooLong(offset: offset, dataSize: dataSize, remaining: body.readableBytes - Self.subHeaderSize - Self.backPointerSize)
            }
            subMessages.append(sub)
        }
        let first = subMessages.first?.timestamp ?? 0
        messages = subMessages.map { sub in
            RTMPRawMessage(
                chunkStreamID: raw.chunkStreamID, timestamp: Self.renormalized(sub.timestamp, first: first, aggregate: raw.timestamp),
                typeID: sub.typeID, messageStreamID: raw.messageStreamID, payload: sub.body)
        }
    }

    /// §7.1.6's rule: the first sub-message lands on the aggregate's timestamp, the rest keep their distance.
    public static func renormalized(_ timestamp: UInt32, first: UInt32, aggregate: UInt32) -> UInt32 {
        aggregate &+ (timestamp &- first)
    }

    /// Reads one sub-message and its back pointer from `buffer`; nil ("need more data") when the whole of it
    /// is not there yet, leaving `buffer` untouched. Throws when the bytes that are there can never be a
    /// sub-message (a wrong back pointer, a nested aggregate). `offset` only names the position in errors.
    /// DataSize is a UI24, so what it can ask to wait for is bounded by 16 MiB.
    public static func decodeSubMessage(from buffer: inout ByteBuffer, offset: Int = 0) throws(Error) -> SubMessage? {
        let index = buffer.readerIndex
        guard buffer.readableBytes >= subHeaderSize + backPointerSize,
              let typeID = buffer.getInteger(at: index, as: UInt8.self),
              let dataSize = dataSize(in: buffer),
              let stampHigh = buffer.getInteger(at: index + 4, as: UInt8.self),
              let stampLow = buffer.getInteger(at: index + 5, as: UInt16.self),
              let stampExtended = buffer.getInteger(at: index + 7, as: UInt8.self)
        else { return nil }
        guard typeID != RTMPMessageType.aggregate.rawValue else { throw .nestedAggregate(offset: offset) }
        guard buffer.readableBytes >= subHeaderSize + dataSize + backPointerSize,
              let backPointer = buffer.getInteger(at: index + subHeaderSize + dataSize, as: UInt32.self),
              let body = buffer.getSlice(at: index + subHeaderSize, length: dataSize)
        else { return nil }
        let expected = UInt32(subHeaderSize + dataSize)
        guard backPointer == expected else {
            throw .backPointerMismatch(offset: offset + subHeaderSize + dataSize, expected: expected, found: backPointer)
        }
        buffer.moveReaderIndex(forwardBy: subHeaderSize + dataSize + backPointerSize)
        let timestamp = UInt32(stampExtended) << 24 | UInt32(stampHigh) << 16 | UInt32(stampLow)
        return SubMessage(typeID: typeID, timestamp: timestamp, body: body)
    }

    /// The DataSize (UI24) of the sub-message at `buffer`'s reader index, if its first four bytes are there.
    static func dataSize(in buffer: ByteBuffer) -> Int? {
        guard let high = buffer.getInteger(at: buffer.readerIndex + 1, as: UInt8.self),
              let low = buffer.getInteger(at: buffer.readerIndex + 2, as: UInt16.self) else { return nil }
        return Int(high) << 16 | Int(low)
    }

    /// Writes `tags` as one aggregate body with back pointers (what Red5 and Wowza send), for tests and
    /// tools: a server in a test plays an FLV this way.
    public static func body(_ tags: [FLVTag]) -> ByteBuffer {
        var buffer = ByteBuffer()
        for tag in tags {
            tag.write(into: &buffer)
            buffer.writeInteger(UInt32(subHeaderSize + tag.data.readableBytes))
        }
        return buffer
    }
}
