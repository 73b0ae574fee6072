import NIOCore

/// Splits RTMP messages into chunks (RTMP spec §5.3), choosing the smallest header each time.
///
/// Per chunk stream it remembers the last message header and picks format 3 (no header) when stream,
/// length, type and timestamp delta repeat, 2 when only the delta changes, 1 when length or type change,
/// and 0 for the first message, a new message stream, or a timestamp going backwards (§5.3.1.2). It never
/// uses format 3 for a new message right after a format 0 header, because peers disagree on the implied
/// delta there (FFmpeg repeats the absolute timestamp, nginx-rtmp uses 0).
///
/// Chunks are written straight into the caller's `ByteBuffer`: one copy of the payload, no intermediate
/// arrays, so a burst of messages can be coalesced into one socket write.
public struct RTMPChunkEncoder: Sendable {
    private struct LastHeader: Sendable {
        var timestamp: UInt32
        var delta: UInt32?
        var length: Int
        var typeID: UInt8
        var messageStreamID: UInt32
    }

    /// The outgoing chunk size (§5.4.1); change it only together with sending Set Chunk Size.
    public private(set) var chunkSize = RTMPChunkDecoder.defaultChunkSize
    private var streams: [UInt32: LastHeader] = [:]

    public init() {}

    /// Use `size` for every chunk after this call. The caller sends the Set Chunk Size message first
    /// (encoded with the old size), as §5.4.1 requires.
    public mutating func setChunkSize(_ size: Int) {
        chunkSize = max(1, min(size, Int(Int32.max)))
    }

    /// Appends `message`'s chunks to `buffer`.
    public mutating func encode(_ message: RTMPRawMessage, into buffer: inout ByteBuffer) {
        let length = message.payload.readableBytes
        let id = message.chunkStreamID
        var header = RTMPChunkHeader(
            format: .full, chunkStreamID: id, timestampField: message.timestamp, messageLength: UInt32(length),
            messageTypeID: message.typeID, messageStreamID: message.messageStreamID)
        var delta: UInt32?
        if let last = streams[id], last.messageStreamID == message.messageStreamID, message.timestamp >= last.timestamp {
            let thisDelta = message.timestamp - last.timestamp
            delta = thisDelta
            header.timestampField = thisDelta
            if last.length != length || last.typeID != message.typeID {
                header.format = .sameStream
            } else if last.delta == thisDelta {
                header.format = .continuation
            } else {
                header.format = .timestampOnly
            }
        }
        header.hasExtendedTimestamp = header.timestampField >= RTMPChunkHeader.extendedTimestampMarker
        streams[id] = LastHeader(
            timestamp: message.timestamp, delta: delta, length: length, typeID: message.typeID,
            messageStreamID: message.messageStreamID)

        let chunkCount = max(1, (length + chunkSize - 1) / chunkSize)
        buffer.reserveCapacity(minimumWritableBytes: length + 18 + (chunkCount - 1) * 8)
        var continuation = header
        continuation.format = .continuation
        var offset = message.payload.readerIndex
        let end = offset + length
        header.write(into: &buffer)
        repeat {
            let take = min(chunkSize, end - offset)
            if take > 0 {
                buffer.writeImmutableBuffer(message.payload.getSlice(at: offset, length: take)!)
            }
            offset += take
            if offset < end { continuation.write(into: &buffer) }
        } while offset < end
    }
}
