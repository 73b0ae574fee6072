import NIOCore
import OnAirCore

/// The body of an FLV video tag / RTMP video message carrying H.264 (FLV spec E.4.3.1, VIDEODATA +
/// AVCVIDEOPACKET): frame type, codec, AVC packet type, composition time, then an avcC record or
/// length-prefixed NAL units.
///
/// ``frame(_:)`` turns an Annex-B ``EncodedPacket`` into a body in one allocation; ``encodedPacket(timestamp:)``
/// goes back to Annex-B for the decoder.
public struct FLVVideoTag: Sendable, Equatable {
    /// FrameType, the upper 4 bits of the first byte (E.4.3.1).
    public enum FrameType: UInt8, Sendable {
        case keyframe = 1
        case interframe = 2
        case disposableInterframe = 3
        case generatedKeyframe = 4
        case videoInfo = 5
    }

    /// CodecID, the lower 4 bits (E.4.3.1); OnAir sends and decodes only AVC.
    public enum CodecID: UInt8, Sendable {
        case sorensonH263 = 2
        case screenVideo = 3
        case vp6 = 4
        case vp6Alpha = 5
        case screenVideo2 = 6
        case avc = 7
    }

    /// AVCPacketType (E.4.3.1).
    public enum AVCPacketType: UInt8, Sendable {
        case sequenceHeader = 0
        case nalu = 1
        case endOfSequence = 2
    }

    /// Why a video body cannot be used.
    public enum Error: Swift.Error, Equatable, CustomStringConvertible {
        case truncated
        case unknownFrameType(UInt8)
        case unsupportedCodec(UInt8)
        case unknownPacketType(UInt8)

        public var description: String {
            switch self {
            case .truncated: "video tag shorter than its 5-byte AVC header (FLV spec E.4.3.1)"
            case .unknownFrameType(let value): "video tag frame type \(value) is not defined (FLV spec E.4.3.1)"
            case .unsupportedCodec(let value): "video codec id \(value) is not H.264 (7); OnAir only handles H.264"
            case .unknownPacketType(let value): "AVC packet type \(value) is not defined (FLV spec E.4.3.1)"
            }
        }
    }

    /// Size of the frame-type/codec byte, AVCPacketType and the SI24 CompositionTime.
    public static let headerSize = 5

    public var frameType: FrameType
    public var packetType: AVCPacketType
    /// Presentation minus decode time in milliseconds (SI24).
    public var compositionTime: Int32
    /// avcC record (sequence header) or length-prefixed NAL units.
    public var body: ByteBuffer

    public init(frameType: FrameType, packetType: AVCPacketType, compositionTime: Int32 = 0, body: ByteBuffer) {
        self.frameType = frameType
        self.packetType = packetType
        self.compositionTime = compositionTime
        self.body = body
    }

    /// Parses an RTMP video message / FLV video tag body.
    public init(parsing buffer: ByteBuffer) throws(Error) {
        var data = buffer
        guard data.readableBytes >= Self.headerSize, let first = data.readInteger(as: UInt8.self),
              let packetByte = data.readInteger(as: UInt8.self) else { throw .truncated }
        guard let frameType = FrameType(rawValue: first >> 4) else { throw .unknownFrameType(first >> 4) }
        guard first & 0x0F == CodecID.avc.rawValue else { throw .unsupportedCodec(first & 0x0F) }
        guard let packetType = AVCPacketType(rawValue: packetByte) else { throw .unknownPacketType(packetByte) }
        let raw = RTMPChunkDecoder.getUInt24(data, at: data.readerIndex)
        data.moveReaderIndex(forwardBy: 3)
        self.frameType = frameType
        self.packetType = packetType
        self.compositionTime = Int32(bitPattern: raw << 8) >> 8    // sign-extend SI24
        self.body = data
    }

    public var isKeyframe: Bool { frameType == .keyframe || frameType == .generatedKeyframe }

    /// Writes the 5-byte header then the body.
    public func write(into buffer: inout ByteBuffer) {
        Self.writeHeader(frameType: frameType, packetType: packetType, compositionTime: compositionTime, into: &buffer)
        buffer.writeImmutableBuffer(body)
    }

    private static func writeHeader(frameType: FrameType, packetType: AVCPacketType, compositionTime: Int32, into buffer: inout ByteBuffer) {
        buffer.writeInteger(frameType.rawValue << 4 | CodecID.avc.rawValue)
        buffer.writeInteger(packetType.rawValue)
        RTMPChunkHeader.writeUInt24(UInt32(bitPattern: compositionTime) & 0xFF_FFFF, into: &buffer)
    }

    /// The AVC sequence header body (AVCPacketType 0) for `record`.
    public static func sequenceHeader(_ record: AVCDecoderConfigurationRecord) -> ByteBuffer {
        var buffer = ByteBuffer()
        writeHeader(frameType: .keyframe, packetType: .sequenceHeader, compositionTime: 0, into: &buffer)
        record.write(into: &buffer)
        return buffer
    }

    /// A NALU body (AVCPacketType 1) for an Annex-B packet: start codes become 4-byte lengths.
    public static func frame(_ packet: EncodedPacket) -> ByteBuffer {
        var buffer = ByteBufferAllocator().buffer(capacity: packet.payload.count + headerSize + 16)
        writeHeader(
            frameType: packet.isKeyframe ? .keyframe : .interframe, packetType: .nalu,
            compositionTime: packet.compositionOffset, into: &buffer)
        H264NALUnits.writeLengthPrefixed(annexB: packet.payload, into: &buffer)
        return buffer
    }

    /// The Annex-B packet of a NALU body; `nil` for sequence headers and end-of-sequence.
    public func encodedPacket(timestamp: Int64, nalLengthSize: Int = 4) throws(H264NALUnits.Error) -> EncodedPacket? {
        guard packetType == .nalu else { return nil }
        let payload = try H264NALUnits.annexB(fromLengthPrefixed: body, lengthSize: nalLengthSize)
        return EncodedPacket(
            kind: .video, decodeTimestamp: timestamp, compositionOffset: compositionTime, isKeyframe: isKeyframe,
            payload: payload)
    }
}
