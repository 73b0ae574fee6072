import NIOCore

/// The `avcC` record (ISO/IEC 14496-15 §5.2.4.1) that an FLV/RTMP AVC sequence header carries
/// (FLV spec E.4.3.1, AVCPacketType 0): profile, level, NAL length size, and the SPS/PPS sets.
public struct AVCDecoderConfigurationRecord: Sendable, Equatable {
    /// Why bytes are not an avcC record.
    public enum Error: Swift.Error, Equatable, CustomStringConvertible {
        case truncated
        case unsupportedVersion(UInt8)
        case missingSequenceParameterSet

        public var description: String {
            switch self {
            case .truncated: "AVC sequence header is cut short (ISO/IEC 14496-15 §5.2.4.1)"
            case .unsupportedVersion(let version): "AVC sequence header has configurationVersion \(version), expected 1"
            case .missingSequenceParameterSet: "cannot build an AVC sequence header without an SPS of at least 4 bytes"
            }
        }
    }

    /// configurationVersion is always 1 (§5.2.4.1.1).
    public static let configurationVersion: UInt8 = 1

    public var profileIndication: UInt8
    public var profileCompatibility: UInt8
    public var levelIndication: UInt8
    /// Bytes per NAL length prefix (1, 2 or 4); OnAir writes 4.
    public var nalLengthSize: Int
    public var sequenceParameterSets: [[UInt8]]
    public var pictureParameterSets: [[UInt8]]

    /// Builds the record from bare SPS/PPS NAL units; profile and level come from SPS bytes 1–3.
    public init(sequenceParameterSets: [[UInt8]], pictureParameterSets: [[UInt8]]) throws(Error) {
        guard let sps = sequenceParameterSets.first, sps.count >= 4 else { throw .missingSequenceParameterSet }
        profileIndication = sps[1]
        profileCompatibility = sps[2]
        levelIndication = sps[3]
        nalLengthSize = 4
        self.sequenceParameterSets = sequenceParameterSets
        self.pictureParameterSets = pictureParameterSets
    }

    /// Parses a record.
    public init(parsing buffer: ByteBuffer) throws(Error) {
        var body = buffer
        guard let version = body.readInteger(as: UInt8.self) else { throw .truncated }
        guard version == Self.configurationVersion else { throw .unsupportedVersion(version) }
        guard let profile = body.readInteger(as: UInt8.self), let compatibility = body.readInteger(as: UInt8.self),
              let level = body.readInteger(as: UInt8.self), let lengthByte = body.readInteger(as: UInt8.self),
              let spsCount = body.readInteger(as: UInt8.self) else { throw .truncated }
        profileIndication = profile
        profileCompatibility = compatibility
        levelIndication = level
        nalLengthSize = Int(lengthByte & 0x03) + 1
        sequenceParameterSets = try Self.readSets(&body, count: Int(spsCount & 0x1F))
        guard let ppsCount = body.readInteger(as: UInt8.self) else { throw .truncated }
        pictureParameterSets = try Self.readSets(&body, count: Int(ppsCount))
    }

    private static func readSets(_ body: inout ByteBuffer, count: Int) throws(Error) -> [[UInt8]] {
        var sets: [[UInt8]] = []
        for _ in 0..<count {
            guard let length = body.readInteger(as: UInt16.self),
                  let bytes = body.readBytes(length: Int(length)) else { throw .truncated }
            sets.append(bytes)
        }
        return sets
    }

    /// Writes the record (reserved bits set to 1 as §5.2.4.1.1 requires).
    public func write(into buffer: inout ByteBuffer) {
        buffer.writeInteger(Self.configurationVersion)
        buffer.writeInteger(profileIndication)
        buffer.writeInteger(profileCompatibility)
        buffer.writeInteger(levelIndication)
        buffer.writeInteger(UInt8(0xFC | UInt8(nalLengthSize - 1)))
        buffer.writeInteger(UInt8(0xE0 | UInt8(sequenceParameterSets.count & 0x1F)))
        for set in sequenceParameterSets {
            buffer.writeInteger(UInt16(set.count))
            buffer.writeBytes(set)
        }
        buffer.writeInteger(UInt8(pictureParameterSets.count))
        for set in pictureParameterSets {
            buffer.writeInteger(UInt16(set.count))
            buffer.writeBytes(set)
        }
    }
}
