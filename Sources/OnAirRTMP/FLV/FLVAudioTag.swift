import NIOCore
import OnAirCore

/// The body of an FLV audio tag / RTMP audio message carrying AAC (FLV spec E.4.2.1, AUDIODATA +
/// AACAUDIODATA): one format byte, the AAC packet type, then an AudioSpecificConfig or a raw AAC frame.
///
/// For AAC the format byte is always 0xAF (AAC, "44 kHz", 16-bit, stereo): E.4.2.1 says decoders take
/// the real rate and channels from the AudioSpecificConfig.
public struct FLVAudioTag: Sendable, Equatable {
    /// SoundFormat, the upper 4 bits (E.4.2.1).
    public enum SoundFormat: UInt8, Sendable {
        case linearPCMPlatformEndian = 0
        case adpcm = 1
        case mp3 = 2
        case linearPCMLittleEndian = 3
        case g711ALaw = 7
        case g711MuLaw = 8
        case aac = 10
        case speex = 11
    }

    /// SoundRate, bits 2–3 (E.4.2.1).
    public enum SoundRate: UInt8, Sendable {
        case kHz5_5 = 0
        case kHz11 = 1
        case kHz22 = 2
        case kHz44 = 3
    }

    /// SoundSize bit and SoundType bit (E.4.2.1).
    public enum SoundSize: UInt8, Sendable { case bits8 = 0, bits16 = 1 }
    public enum SoundType: UInt8, Sendable { case mono = 0, stereo = 1 }

    /// AACPacketType (E.4.2.1).
    public enum AACPacketType: UInt8, Sendable {
        case sequenceHeader = 0
        case raw = 1
    }

    /// Why an audio body cannot be used.
    public enum Error: Swift.Error, Equatable, CustomStringConvertible {
        case truncated
        case unsupportedFormat(UInt8)
        case unknownPacketType(UInt8)

        public var description: String {
            switch self {
            case .truncated: "audio tag shorter than its 2-byte AAC header (FLV spec E.4.2.1)"
            case .unsupportedFormat(let value): "audio sound format \(value) is not AAC (10); OnAir only handles AAC"
            case .unknownPacketType(let value): "AAC packet type \(value) is not defined (FLV spec E.4.2.1)"
            }
        }
    }

    /// The format byte OnAir writes for AAC: format 10, rate 3, 16-bit, stereo.
    public static let aacFormatByte: UInt8 = SoundFormat.aac.rawValue << 4 | SoundRate.kHz44.rawValue << 2
        | SoundSize.bits16.rawValue << 1 | SoundType.stereo.rawValue

    public var packetType: AACPacketType
    /// AudioSpecificConfig (sequence header) or one raw AAC frame.
    public var body: ByteBuffer

    public init(packetType: AACPacketType, body: ByteBuffer) {
        self.packetType = packetType
        self.body = body
    }

    /// Parses an RTMP audio message / FLV audio tag body.
    public init(parsing buffer: ByteBuffer) throws(Error) {
        var data = buffer
        guard let first = data.readInteger(as: UInt8.self), let packetByte = data.readInteger(as: UInt8.self) else {
            throw .truncated
        }
        guard first >> 4 == SoundFormat.aac.rawValue else { throw .unsupportedFormat(first >> 4) }
        guard let packetType = AACPacketType(rawValue: packetByte) else { throw .unknownPacketType(packetByte) }
        self.packetType = packetType
        self.body = data
    }

    /// Writes the 2-byte header then the body.
    public func write(into buffer: inout ByteBuffer) {
        buffer.writeInteger(Self.aacFormatByte)
        buffer.writeInteger(packetType.rawValue)
        buffer.writeImmutableBuffer(body)
    }

    /// The AAC sequence header body (AACPacketType 0).
    public static func sequenceHeader(audioSpecificConfig: [UInt8]) -> ByteBuffer {
        var buffer = ByteBufferAllocator().buffer(capacity: audioSpecificConfig.count + 2)
        buffer.writeInteger(aacFormatByte)
        buffer.writeInteger(AACPacketType.sequenceHeader.rawValue)
        buffer.writeBytes(audioSpecificConfig)
        return buffer
    }

    /// A raw-frame body (AACPacketType 1) for an encoded AAC packet.
    public static func frame(_ packet: EncodedPacket) -> ByteBuffer {
        var buffer = ByteBufferAllocator().buffer(capacity: packet.payload.count + 2)
        buffer.writeInteger(aacFormatByte)
        buffer.writeInteger(AACPacketType.raw.rawValue)
        buffer.writeBytes(packet.payload)
        return buffer
    }

    /// The packet of a raw frame; `nil` for a sequence header.
    public func encodedPacket(timestamp: Int64) -> EncodedPacket? {
        guard packetType == .raw else { return nil }
        return EncodedPacket(kind: .audio, decodeTimestamp: timestamp, isKeyframe: true, payload: Array(body.readableBytesView))
    }
}
