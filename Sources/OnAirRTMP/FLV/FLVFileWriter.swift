import NIOCore

/// Builds an FLV file (FLV spec E.2 header, E.3 body): header, PreviousTagSize0, then each tag followed by
/// its PreviousTagSize.
///
/// Pure: bytes accumulate in ``bytes`` and the owner writes them wherever it wants (a file, a pipe);
/// ``takeBytes()`` drains them so a long recording is streamed out rather than held in memory.
public struct FLVFileWriter: Sendable {
    /// The FLV header's TypeFlags bits (E.2).
    public enum TypeFlags: UInt8, Sendable {
        case video = 0x01
        case audio = 0x04
    }

    /// "FLV" signature and version 1 (E.2).
    public static let signature: [UInt8] = Array("FLV".utf8)
    public static let version: UInt8 = 1
    /// DataOffset of a version-1 header: its own size.
    public static let headerSize: UInt32 = 9

    public private(set) var bytes = ByteBuffer()

    /// Starts a file whose header announces audio and/or video.
    public init(hasAudio: Bool, hasVideo: Bool) {
        bytes.writeBytes(Self.signature)
        bytes.writeInteger(Self.version)
        var flags: UInt8 = 0
        if hasAudio { flags |= TypeFlags.audio.rawValue }
        if hasVideo { flags |= TypeFlags.video.rawValue }
        bytes.writeInteger(flags)
        bytes.writeInteger(Self.headerSize)
        bytes.writeInteger(UInt32(0))   // PreviousTagSize0
    }

    /// Appends a tag and its PreviousTagSize (E.3: the size of the tag including its 11-byte header).
    public mutating func append(_ tag: FLVTag) {
        tag.write(into: &bytes)
        bytes.writeInteger(UInt32(FLVTag.headerSize + tag.data.readableBytes))
    }

    /// The bytes written so far, leaving the writer empty for the next ones.
    public mutating func takeBytes() -> ByteBuffer {
        defer { bytes.clear() }
        return bytes
    }
}
