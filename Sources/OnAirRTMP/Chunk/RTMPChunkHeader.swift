import NIOCore

/// The header of one chunk (RTMP spec §5.3.1): basic header (format + chunk stream ID) and the message
/// header fields that the format carries.
///
/// Timestamps: format 0 carries an absolute timestamp, formats 1 and 2 a delta (§5.3.1.2). A value of
/// 0xFFFFFF or more goes in the 4-byte Extended Timestamp (§5.3.1.3), which is then also repeated on
/// format-3 chunks of the same chunk stream (as FFmpeg, librtmp and nginx-rtmp expect).
public struct RTMPChunkHeader: Sendable, Equatable {
    /// The 2-bit `fmt` field (§5.3.1.2): how much of the message header is present.
    public enum Format: UInt8, Sendable, CaseIterable {
        /// 11 bytes: timestamp, length, type, stream ID. Starts a chunk stream or goes back in time.
        case full = 0
        /// 7 bytes: timestamp delta, length, type; same message stream.
        case sameStream = 1
        /// 3 bytes: timestamp delta only; same stream, length and type.
        case timestampOnly = 2
        /// 0 bytes: continuation of a message, or a new message repeating everything.
        case continuation = 3

        /// Length of the message header for this format (§5.3.1.2.1–4).
        public var messageHeaderLength: Int {
            switch self {
            case .full: 11
            case .sameStream: 7
            case .timestampOnly: 3
            case .continuation: 0
            }
        }
    }

    /// Chunk stream IDs the basic header can carry (§5.3.1.1): 2–63 in one byte, 64–319 in two, up to 65599 in three.
    public enum ChunkStreamIDRange {
        /// ID 2 is reserved for protocol control messages (§5.4).
        public static let protocolControl: UInt32 = 2
        public static let oneByteMax: UInt32 = 63
        public static let twoByteMax: UInt32 = 319
        public static let max: UInt32 = 65_599
        /// Marker values in the 6-bit field meaning "2-byte" and "3-byte" forms.
        static let twoByteMarker: UInt8 = 0
        static let threeByteMarker: UInt8 = 1
        static let offset: UInt32 = 64
    }

    /// The largest timestamp that fits the 3-byte field; this value signals an extended timestamp (§5.3.1.3).
    public static let extendedTimestampMarker: UInt32 = 0xFF_FFFF

    public var format: Format
    public var chunkStreamID: UInt32
    /// Absolute (format 0) or delta (formats 1, 2) timestamp; ignored for format 3.
    public var timestampField: UInt32
    public var messageLength: UInt32
    public var messageTypeID: UInt8
    public var messageStreamID: UInt32
    /// Whether the 4-byte extended timestamp follows (also for format 3 continuing an extended message).
    public var hasExtendedTimestamp: Bool

    public init(
        format: Format, chunkStreamID: UInt32, timestampField: UInt32 = 0, messageLength: UInt32 = 0,
        messageTypeID: UInt8 = 0, messageStreamID: UInt32 = 0, hasExtendedTimestamp: Bool = false
    ) {
        self.format = format
        self.chunkStreamID = chunkStreamID
        self.timestampField = timestampField
        self.messageLength = messageLength
        self.messageTypeID = messageTypeID
        self.messageStreamID = messageStreamID
        self.hasExtendedTimestamp = hasExtendedTimestamp
    }

    /// Writes the basic header, message header and extended timestamp (§5.3.1) into `buffer`.
    public func write(into buffer: inout ByteBuffer) {
        let fmtBits = format.rawValue << 6
        if chunkStreamID <= ChunkStreamIDRange.oneByteMax {
            buffer.writeInteger(fmtBits | UInt8(chunkStreamID))
        } else if chunkStreamID <= ChunkStreamIDRange.twoByteMax {
            buffer.writeInteger(fmtBits | ChunkStreamIDRange.twoByteMarker)
            buffer.writeInteger(UInt8(chunkStreamID - ChunkStreamIDRange.offset))
        } else {
            let value = chunkStreamID - ChunkStreamIDRange.offset
            buffer.writeInteger(fmtBits | ChunkStreamIDRange.threeByteMarker)
            buffer.writeInteger(UInt8(truncatingIfNeeded: value))          // low byte first (§5.3.1.1)
            buffer.writeInteger(UInt8(truncatingIfNeeded: value >> 8))
        }
        let extended = hasExtendedTimestamp || timestampField >= Self.extendedTimestampMarker
        if format != .continuation {
            Self.writeUInt24(extended ? Self.extendedTimestampMarker : timestampField, into: &buffer)
        }
        if format == .full || format == .sameStream {
            Self.writeUInt24(messageLength, into: &buffer)
            buffer.writeInteger(messageTypeID)
        }
        if format == .full {
            buffer.writeInteger(messageStreamID, endianness: .little)  // §5.3.1.2.1: little-endian
        }
        if extended {
            buffer.writeInteger(timestampField)
        }
    }

    static func writeUInt24(_ value: UInt32, into buffer: inout ByteBuffer) {
        buffer.writeInteger(UInt8(truncatingIfNeeded: value >> 16))
        buffer.writeInteger(UInt16(truncatingIfNeeded: value))
    }
}
