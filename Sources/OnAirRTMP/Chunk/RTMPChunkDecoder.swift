import NIOCore

/// Reassembles RTMP messages from a chunk stream (RTMP spec §5.3), incrementally and within limits.
///
/// Feed it whatever the socket delivered; each ``decode(_:)`` call returns the next complete message or
/// `nil` when more bytes are needed. It consumes only whole chunk headers (it peeks until one is complete)
/// and then as much chunk payload as is there, so it never rewinds and gives the same messages whether
/// the input arrives one byte at a time or all at once.
///
/// It applies the receive-side protocol control messages itself (Set Chunk Size §5.4.1, Abort §5.4.2)
/// because they change how the *following* bytes parse; it still returns them so the owner sees them.
/// Hostile input — a 2^31 chunk size, thousands of chunk stream IDs, a message claiming more than
/// ``Limits/maxMessageLength`` — is a typed ``Error``, never a crash or an unbounded allocation.
public struct RTMPChunkDecoder: Sendable {
    /// Bounds on what a peer may make the decoder hold.
    public struct Limits: Sendable, Equatable {
        /// Largest chunk size a peer may set (§5.4.1 allows up to 2^31-1; a message is at most 2^24-1 anyway).
        public var maxChunkSize: Int
        /// Largest message a peer may announce (the 3-byte length field allows 16 MiB).
        public var maxMessageLength: Int
        /// Most chunk streams with state at once (nginx-rtmp's default `max_streams` is 32).
        public var maxChunkStreams: Int
        /// Most bytes announced by the messages in progress across all chunk streams at once (GitHub issue
        /// 14: 60 chunk streams each holding most of an 8 MiB message pinned 512 MB per connection).
        public var maxPartialBytes: Int

        public init(maxChunkSize: Int = 0xFF_FFFF, maxMessageLength: Int = 8 << 20, maxChunkStreams: Int = 64,
                    maxPartialBytes: Int = 16 << 20) {
            self.maxChunkSize = maxChunkSize
            self.maxMessageLength = maxMessageLength
            self.maxChunkStreams = maxChunkStreams
            self.maxPartialBytes = maxPartialBytes
        }
    }

    /// Why the chunk stream cannot be parsed; the connection should be closed.
    public enum Error: Swift.Error, Equatable, CustomStringConvertible {
        case chunkSizeOutOfRange(requested: UInt32, limit: Int)
        case messageTooLong(length: Int, limit: Int)
        case tooManyChunkStreams(limit: Int)
        case noPreviousHeader(chunkStreamID: UInt32, format: UInt8)
        case headerInterruptsMessage(chunkStreamID: UInt32)
        case malformedControlMessage(RTMPMessageType)
        case partialMessagesTooLarge(bytes: Int, limit: Int)

        public var description: String {
            switch self {
            case .chunkSizeOutOfRange(let requested, let limit):
                "peer set chunk size \(requested), outside 1...\(limit) (RTMP spec §5.4.1); closing the connection"
            case .messageTooLong(let length, let limit):
                "peer announced a \(length)-byte message, over the \(limit)-byte limit; closing the connection"
            case .tooManyChunkStreams(let limit):
                "peer opened more than \(limit) chunk streams; closing the connection"
            case .noPreviousHeader(let id, let format):
                "chunk stream \(id) starts with a format-\(format) header that needs a previous header (RTMP spec §5.3.1.2)"
            case .headerInterruptsMessage(let id):
                "chunk stream \(id) starts a new message before the previous one ended (RTMP spec §5.3.1)"
            case .malformedControlMessage(let type):
                "\(type) message has the wrong length (RTMP spec §5.4)"
            case .partialMessagesTooLarge(let bytes, let limit):
                "peer has \(bytes) bytes of unfinished messages open across its chunk streams, over the \(limit)-byte limit; closing the connection"
            }
        }
    }

    /// The default chunk size of both directions until Set Chunk Size (§5.4.1).
    public static let defaultChunkSize = 128

    private struct StreamState: Sendable {
        var timestamp: UInt32 = 0
        var timestampField: UInt32 = 0
        var length: Int = 0
        var typeID: UInt8 = 0
        var messageStreamID: UInt32 = 0
        var extended = false
        var payload: ByteBuffer?
        /// Which message this chunk stream is assembling, counted from 1 (``oldestPartialMessage``).
        var serial: UInt64 = 0
    }

    public var limits: Limits
    /// Current incoming chunk size.
    public private(set) var chunkSize = Self.defaultChunkSize
    private var streams: [UInt32: StreamState] = [:]
    /// The first spec break tolerated, until ``takeWarning()`` hands it over; then only `warned` remains.
    private var warning: String?
    private var warned = false
    /// The chunk stream whose chunk payload is being read, and how many bytes of this chunk remain.
    private var openChunk: (chunkStreamID: UInt32, remaining: Int)?
    /// Announced lengths of the messages in progress, summed (bounded by ``Limits/maxPartialBytes``).
    public private(set) var partialBytes = 0
    private var messagesStarted: UInt64 = 0

    public init(limits: Limits = Limits()) {
        self.limits = limits
    }

    /// The next complete message from `buffer`, or `nil` when more bytes are needed.
    public mutating func decode(_ buffer: inout ByteBuffer) throws(Error) -> RTMPRawMessage? {
        while true {
            if let (id, remaining) = openChunk {
                guard buffer.readableBytes > 0 || remaining == 0 else { return nil }
                var state = streams[id]!
                let take = min(remaining, buffer.readableBytes)
                var part = buffer.readSlice(length: take)!
                if state.payload == nil {
                    state.payload = part
                } else {
                    state.payload!.writeBuffer(&part)
                }
                let left = remaining - take
                openChunk = left == 0 ? nil : (id, left)
                if state.payload!.readableBytes == state.length {
                    openChunk = nil
                    let message = RTMPRawMessage(
                        chunkStreamID: id, timestamp: state.timestamp, typeID: state.typeID,
                        messageStreamID: state.messageStreamID, payload: state.payload!)
                    state.payload = nil
                    partialBytes -= state.length
                    streams[id] = state
                    try apply(message)
                    return message
                }
                streams[id] = state
                if left > 0 { return nil }
                continue
            }
            guard let header = try peekHeader(buffer) else { return nil }
            buffer.moveReaderIndex(forwardBy: header.byteCount)
            try begin(header.header)
        }
    }

    /// Parses a complete chunk header without consuming it; `nil` when it is not all there yet.
    private func peekHeader(_ buffer: ByteBuffer) throws(Error) -> (header: RTMPChunkHeader, byteCount: Int)? {
        var offset = buffer.readerIndex
        guard let first = buffer.getInteger(at: offset, as: UInt8.self) else { return nil }
        offset += 1
        guard let format = RTMPChunkHeader.Format(rawValue: first >> 6) else { return nil }
        var id = UInt32(first & 0x3F)
        if id == UInt32(RTMPChunkHeader.ChunkStreamIDRange.twoByteMarker) {
            guard let low = buffer.getInteger(at: offset, as: UInt8.self) else { return nil }
            id = RTMPChunkHeader.ChunkStreamIDRange.offset + UInt32(low)
            offset += 1
        } else if id == UInt32(RTMPChunkHeader.ChunkStreamIDRange.threeByteMarker) {
            guard let low = buffer.getInteger(at: offset, as: UInt8.self),
                  let high = buffer.getInteger(at: offset + 1, as: UInt8.self) else { return nil }
            id = RTMPChunkHeader.ChunkStreamIDRange.offset + UInt32(low) + UInt32(high) << 8
            offset += 2
        }
        var header = RTMPChunkHeader(format: format, chunkStreamID: id)
        guard buffer.readableBytes - (offset - buffer.readerIndex) >= format.messageHeaderLength else { return nil }
        if format != .continuation {
            header.timestampField = Self.getUInt24(buffer, at: offset)
            header.hasExtendedTimestamp = header.timestampField == RTMPChunkHeader.extendedTimestampMarker
        } else if let previous = streams[id] {
            header.hasExtendedTimestamp = previous.extended
        }
        if format == .full || format == .sameStream {
            header.messageLength = Self.getUInt24(buffer, at: offset + 3)
            header.messageTypeID = buffer.getInteger(at: offset + 6, as: UInt8.self)!
        }
        if format == .full {
            header.messageStreamID = buffer.getInteger(at: offset + 7, endianness: .little, as: UInt32.self)!
        }
        offset += format.messageHeaderLength
        if header.hasExtendedTimestamp {
            guard let extended = buffer.getInteger(at: offset, as: UInt32.self) else { return nil }
            header.timestampField = extended
            offset += 4
        }
        return (header, offset - buffer.readerIndex)
    }

    /// The first break of the spec this decoder tolerated, once (for a `warning` event); `nil` afterwards.
    public mutating func takeWarning() -> String? {
        defer { warning = nil }
        return warning
    }

    /// Notes a break of the spec that ffmpeg and librtmp accept, so the operator learns of it once.
    /// A format-1/2/3 first header on a fresh chunk stream reads its missing previous header as zeros on
    /// message stream 0 (pyrtmp sends one); the limits on streams, lengths and chunk sizes still hold.
    private mutating func tolerate(_ violation: Error) {
        guard !warned else { return }
        warned = true
        warning = "peer broke the RTMP spec: \(violation); read as zeros on message stream 0, as ffmpeg and librtmp do"
    }

    /// Updates the chunk stream's state from a header and opens its chunk payload.
    private mutating func begin(_ header: RTMPChunkHeader) throws(Error) {
        let id = header.chunkStreamID
        var state: StreamState
        if let existing = streams[id] {
            state = existing
        } else {
            guard streams.count < limits.maxChunkStreams else { throw .tooManyChunkStreams(limit: limits.maxChunkStreams) }
            if header.format != .full { tolerate(.noPreviousHeader(chunkStreamID: id, format: header.format.rawValue)) }
            state = StreamState()
        }
        let continuing = state.payload != nil
        if continuing {
            guard header.format == .continuation else { throw .headerInterruptsMessage(chunkStreamID: id) }
        } else {
            switch header.format {
            case .full:
                state.timestamp = header.timestampField
                state.timestampField = header.timestampField
                state.length = Int(header.messageLength)
                state.typeID = header.messageTypeID
                state.messageStreamID = header.messageStreamID
            case .sameStream:
                state.timestampField = header.timestampField
                state.timestamp &+= header.timestampField
                state.length = Int(header.messageLength)
                state.typeID = header.messageTypeID
            case .timestampOnly:
                state.timestampField = header.timestampField
                state.timestamp &+= header.timestampField
            case .continuation:
                // A new message repeating the previous header: the previous delta applies again (§5.3.1.2.4).
                if header.hasExtendedTimestamp { state.timestampField = header.timestampField }
                state.timestamp &+= state.timestampField
            }
            if header.format != .continuation { state.extended = header.hasExtendedTimestamp }
            guard state.length <= limits.maxMessageLength else {
                throw .messageTooLong(length: state.length, limit: limits.maxMessageLength)
            }
        }
        let received = state.payload?.readableBytes ?? 0
        if !continuing {
            guard partialBytes + state.length <= limits.maxPartialBytes else {
                throw .partialMessagesTooLarge(bytes: partialBytes + state.length, limit: limits.maxPartialBytes)
            }
            partialBytes += state.length
            messagesStarted += 1
            state.serial = messagesStarted
            if state.length > chunkSize {
                state.payload = ByteBufferAllocator().buffer(capacity: min(state.length, 1 << 16))
            }
        }
        streams[id] = state
        openChunk = (id, min(chunkSize, state.length - received))
    }

    /// Applies Set Chunk Size and Abort (§5.4.1, §5.4.2), which change how later bytes parse.
    private mutating func apply(_ message: RTMPRawMessage) throws(Error) {
        guard message.messageStreamID == 0, let type = message.type else { return }
        switch type {
        case .setChunkSize:
            guard let value = message.payload.getInteger(at: message.payload.readerIndex, as: UInt32.self) else {
                throw .malformedControlMessage(type)
            }
            guard value >= 1, value <= UInt32(limits.maxChunkSize) else {
                throw .chunkSizeOutOfRange(requested: value, limit: limits.maxChunkSize)
            }
            chunkSize = Int(value)
        case .abort:
            guard let id = message.payload.getInteger(at: message.payload.readerIndex, as: UInt32.self) else {
                throw .malformedControlMessage(type)
            }
            if let state = streams[id], state.payload != nil {
                partialBytes -= state.length
                streams[id]?.payload = nil
            }
        default:
            break
        }
    }

    /// Which message, counted from 1 in the order they started, is the oldest one still unfinished; `nil`
    /// when none is. The owner puts a deadline on it: a serial that stays the oldest too long is a message
    /// that never completes.
    public var oldestPartialMessage: UInt64? {
        streams.values.lazy.filter { $0.payload != nil }.map(\.serial).min()
    }

    static func getUInt24(_ buffer: ByteBuffer, at offset: Int) -> UInt32 {
        let high = UInt32(buffer.getInteger(at: offset, as: UInt8.self) ?? 0)
        let low = UInt32(buffer.getInteger(at: offset + 1, as: UInt16.self) ?? 0)
        return high << 16 | low
    }
}
