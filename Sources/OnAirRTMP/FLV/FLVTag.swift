import NIOCore

/// One FLV tag (FLV spec E.4.1): type, 32-bit millisecond timestamp, and the body that RTMP audio, video
/// and data messages carry unchanged.
///
/// An RTMP message body *is* an FLV tag body, which is why the publisher, the player and the file
/// reader/writer share this type.
public struct FLVTag: Sendable, Equatable {
    /// TagType (E.4.1), the same numbers as RTMP message types 8, 9 and 18.
    public enum TagType: UInt8, Sendable {
        case audio = 8
        case video = 9
        case scriptData = 18
    }

    /// Size of the tag header: type, DataSize (UI24), Timestamp (UI24 + UI8 extension), StreamID (UI24).
    public static let headerSize = 11

    public var type: TagType
    /// Milliseconds; FLV stores the low 24 bits then the high 8 bits (TimestampExtended).
    public var timestamp: UInt32
    public var data: ByteBuffer

    public init(type: TagType, timestamp: UInt32, data: ByteBuffer) {
        self.type = type
        self.timestamp = timestamp
        self.data = data
    }

    /// Writes the tag header and body (not the trailing PreviousTagSize).
    public func write(into buffer: inout ByteBuffer) {
        buffer.writeInteger(type.rawValue)                         // Reserved/Filter bits are 0
        RTMPChunkHeader.writeUInt24(UInt32(data.readableBytes), into: &buffer)
        RTMPChunkHeader.writeUInt24(timestamp & 0xFF_FFFF, into: &buffer)
        buffer.writeInteger(UInt8(truncatingIfNeeded: timestamp >> 24))
        RTMPChunkHeader.writeUInt24(0, into: &buffer)               // StreamID: always 0
        buffer.writeImmutableBuffer(data)
    }

    /// The tag as an RTMP message of the matching type (RTMP spec §7.1.5, §7.1.2).
    public func rtmpMessage(messageStreamID: UInt32) -> RTMPRawMessage {
        let chunkStream: UInt32 = switch type {
        case .audio: RTMPMessage.ChunkStream.audio
        case .video: RTMPMessage.ChunkStream.video
        case .scriptData: RTMPMessage.ChunkStream.data
        }
        return RTMPRawMessage(
            chunkStreamID: chunkStream, timestamp: timestamp, typeID: type.rawValue,
            messageStreamID: messageStreamID, payload: data)
    }
}
