import NIOCore

/// One reassembled RTMP message (RTMP spec §6.1): the message header fields plus the payload bytes.
///
/// This is what the chunk layer produces and consumes; ``RTMPMessage`` gives the payload meaning.
/// The payload is a `ByteBuffer` slice so that media bodies move without copying.
public struct RTMPRawMessage: Sendable, Equatable {
    /// The chunk stream it arrived on or should leave on (§5.3.1.1).
    public var chunkStreamID: UInt32
    /// Absolute timestamp in milliseconds, modulo 2^32 (§5.3.1.2 timestamps wrap).
    public var timestamp: UInt32
    /// The message type ID (§6.1.1); kept raw so that unknown types still reassemble.
    public var typeID: UInt8
    /// The message stream ID (§6.1.1); 0 for the NetConnection.
    public var messageStreamID: UInt32
    public var payload: ByteBuffer

    public init(chunkStreamID: UInt32, timestamp: UInt32, typeID: UInt8, messageStreamID: UInt32, payload: ByteBuffer) {
        self.chunkStreamID = chunkStreamID
        self.timestamp = timestamp
        self.typeID = typeID
        self.messageStreamID = messageStreamID
        self.payload = payload
    }

    /// The type, when it is one RTMP defines.
    public var type: RTMPMessageType? { RTMPMessageType(rawValue: typeID) }
}
