import NIOCore

/// Reads FLV files (FLV spec E.2, E.3) incrementally: the header, then one ``FLVTag`` per call.
///
/// ``nextTag(from:)`` returns `nil` ("need more data") on a partial tag and leaves its bytes in the buffer,
/// so reading a file that is still being written, or a truncated one, yields every complete tag and stops
/// cleanly at the last one. Sizes are checked against ``maxTagSize`` before anything is held.
public struct FLVFileReader: Sendable {
    /// The fields of the FLV header (E.2).
    public struct Header: Sendable, Equatable {
        public var version: UInt8
        public var hasAudio: Bool
        public var hasVideo: Bool

        public init(version: UInt8, hasAudio: Bool, hasVideo: Bool) {
            self.version = version
            self.hasAudio = hasAudio
            self.hasVideo = hasVideo
        }
    }

    /// Why the bytes are not a readable FLV file.
    public enum Error: Swift.Error, Equatable, CustomStringConvertible {
        case notFLV
        case dataOffsetOutOfRange(UInt32)
        case tagTooLarge(size: Int, limit: Int)
        case unknownTagType(UInt8)

        public var description: String {
            switch self {
            case .notFLV: "not an FLV file: it does not start with \"FLV\" (FLV spec E.2)"
            case .dataOffsetOutOfRange(let offset): "FLV header DataOffset \(offset) is out of range (9...\(FLVFileReader.maxDataOffset))"
            case .tagTooLarge(let size, let limit): "FLV tag of \(size) bytes exceeds the \(limit)-byte limit; the file is corrupt"
            case .unknownTagType(let type): "FLV tag type \(type) is not audio (8), video (9) or script data (18), or is encrypted"
            }
        }
    }

    /// Largest header DataOffset accepted; version-1 headers are 9 bytes.
    public static let maxDataOffset: UInt32 = 1024
    /// Bytes after a tag's data: its PreviousTagSize (E.3).
    static let previousTagSizeLength = 4

    public let maxTagSize: Int
    public private(set) var header: Header?

    public init(maxTagSize: Int = 0xFF_FFFF) {
        self.maxTagSize = maxTagSize
    }

    /// The next complete tag, or `nil` when `buffer` holds only part of the header or of a tag.
    public mutating func nextTag(from buffer: inout ByteBuffer) throws(Error) -> FLVTag? {
        if header == nil {
            guard try readHeader(&buffer) else { return nil }
        }
        let start = buffer.readerIndex
        guard let typeByte = buffer.getInteger(at: start, as: UInt8.self) else { return nil }
        guard let type = FLVTag.TagType(rawValue: typeByte) else { throw .unknownTagType(typeByte) }
        guard buffer.readableBytes >= FLVTag.headerSize else { return nil }
        let size = Int(RTMPChunkDecoder.getUInt24(buffer, at: start + 1))
        guard size <= maxTagSize else { throw .tagTooLarge(size: size, limit: maxTagSize) }
        guard buffer.readableBytes >= FLVTag.headerSize + size + Self.previousTagSizeLength else { return nil }
        let low = RTMPChunkDecoder.getUInt24(buffer, at: start + 4)
        let high = UInt32(buffer.getInteger(at: start + 7, as: UInt8.self)!)
        buffer.moveReaderIndex(forwardBy: FLVTag.headerSize)
        let data = buffer.readSlice(length: size)!
        buffer.moveReaderIndex(forwardBy: Self.previousTagSizeLength)
        return FLVTag(type: type, timestamp: high << 24 | low, data: data)
    }

    /// Every complete tag of `bytes`; `isTruncated` is true when bytes after the last complete tag remain.
    public static func readAll(_ bytes: ByteBuffer, maxTagSize: Int = 0xFF_FFFF) throws(Error) -> (header: Header?, tags: [FLVTag], isTruncated: Bool) {
        var reader = FLVFileReader(maxTagSize: maxTagSize)
        var buffer = bytes
        var tags: [FLVTag] = []
        while let tag = try reader.nextTag(from: &buffer) { tags.append(tag) }
        return (reader.header, tags, buffer.readableBytes > 0)
    }

    /// The same over bytes read from a file, for callers that hold no `ByteBuffer` (they need not import NIO).
    public static func readAll(bytes: some Sequence<UInt8>, maxTagSize: Int = 0xFF_FFFF) throws(Error) -> (header: Header?, tags: [FLVTag], isTruncated: Bool) {
        try readAll(ByteBuffer(bytes: bytes), maxTagSize: maxTagSize)
    }

    private mutating func readHeader(_ buffer: inout ByteBuffer) throws(Error) -> Bool {
        let start = buffer.readerIndex
        let signature = FLVFileWriter.signature
        for (index, byte) in signature.enumerated() {
            guard let value = buffer.getInteger(at: start + index, as: UInt8.self) else { return false }
            guard value == byte else { throw .notFLV }
        }
        guard buffer.readableBytes >= Int(FLVFileWriter.headerSize) else { return false }
        let version = buffer.getInteger(at: start + 3, as: UInt8.self)!
        let flags = buffer.getInteger(at: start + 4, as: UInt8.self)!
        let offset = buffer.getInteger(at: start + 5, as: UInt32.self)!
        guard offset >= FLVFileWriter.headerSize, offset <= Self.maxDataOffset else { throw .dataOffsetOutOfRange(offset) }
        guard buffer.readableBytes >= Int(offset) + Self.previousTagSizeLength else { return false }
        buffer.moveReaderIndex(forwardBy: Int(offset) + Self.previousTagSizeLength)
        header = Header(
            version: version, hasAudio: flags & FLVFileWriter.TypeFlags.audio.rawValue != 0,
            hasVideo: flags & FLVFileWriter.TypeFlags.video.rawValue != 0)
        return true
    }
}
