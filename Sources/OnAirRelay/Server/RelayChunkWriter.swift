import NIOCore
import OnAirRTMP

/// Chunks one relayed message so that the same bytes can go to every player (RTMP spec §5.3.1).
///
/// ``RTMPChunkEncoder`` compresses headers against what it sent last on each chunk stream, which is per
/// connection state: using it for fan-out would mean chunking (and copying) every message once per player.
/// Like nginx-rtmp's live module, the relay instead chunks a message once and writes the same
/// reference-counted `ByteBuffer` to all players. That needs headers that depend on no earlier message:
/// a format-0 header (absolute timestamp, §5.3.1.2.1) then format-3 continuations, extended timestamp
/// repeated as §5.3.1.3 requires. It costs 11 header bytes per message instead of 1–8.
///
/// The relayed chunk streams are ones the per-connection encoder never uses (it has 2 and 3), so neither
/// disturbs the other's header compression state on the player's side.
enum RelayChunkWriter {
    /// Chunk streams for relayed media and data; the per-connection encoder uses only 2 (control) and 3.
    enum ChunkStream {
        static let audio: UInt32 = 4
        static let video: UInt32 = 6
        static let data: UInt32 = 8
    }

    static func chunkStream(for typeID: UInt8) -> UInt32 {
        switch RTMPMessageType(rawValue: typeID) {
        case .audio: ChunkStream.audio
        case .video: ChunkStream.video
        default: ChunkStream.data
        }
    }

    /// The message's chunks, format 0 then format 3, at `chunkSize`.
    static func chunks(
        typeID: UInt8, timestamp: UInt32, payload: ByteBuffer, messageStreamID: UInt32, chunkSize: Int,
        allocator: ByteBufferAllocator
    ) -> ByteBuffer {
        var out = allocator.buffer(capacity: 0)
        write(typeID: typeID, timestamp: timestamp, payload: payload, messageStreamID: messageStreamID,
              chunkSize: chunkSize, into: &out)
        return out
    }

    /// Appends the message's chunks, format 0 then format 3, at `chunkSize`, to `out`.
    static func write(
        typeID: UInt8, timestamp: UInt32, payload: ByteBuffer, messageStreamID: UInt32, chunkSize: Int,
        into out: inout ByteBuffer
    ) {
        let length = payload.readableBytes
        let extended = timestamp >= RTMPChunkHeader.extendedTimestampMarker
        let chunkCount = max(1, (length + chunkSize - 1) / chunkSize)
        out.reserveCapacity(minimumWritableBytes: length + 16 + (chunkCount - 1) * (extended ? 5 : 1))
        let csid = chunkStream(for: typeID)
        let header = RTMPChunkHeader(
            format: .full, chunkStreamID: csid, timestampField: timestamp, messageLength: UInt32(length),
            messageTypeID: typeID, messageStreamID: messageStreamID, hasExtendedTimestamp: extended)
        let continuation = RTMPChunkHeader(
            format: .continuation, chunkStreamID: csid, timestampField: timestamp, hasExtendedTimestamp: extended)
        header.write(into: &out)
        var offset = payload.readerIndex
        let end = offset + length
        while offset < end {
            if offset > payload.readerIndex { continuation.write(into: &out) }
            let take = min(chunkSize, end - offset)
            payload.withUnsafeReadableBytes { all in
                _ = out.writeBytes(UnsafeRawBufferPointer(rebasing: all[(offset - payload.readerIndex)..<(offset - payload.readerIndex + take)]))
            }
            offset += take
        }
    }
}
