import NIOCore
import OnAirCore

/// Conversions between H.264 byte-stream (Annex-B, start codes, scanned by ``OnAirCore/AnnexB``) and the 4-byte length-prefixed NAL units
/// that FLV/RTMP carry (ISO/IEC 14496-15 §5.3.4.2 with lengthSizeMinusOne = 3).
///
/// OnAir's encoders and decoders use Annex-B (``OnAirCore/EncodedPacket``); the conversion happens only here,
/// at the FLV boundary.
public enum H264NALUnits {
    /// Why a length-prefixed buffer is malformed.
    public enum Error: Swift.Error, Equatable, CustomStringConvertible {
        case lengthOverrun(declared: Int, available: Int)

        public var description: String {
            switch self {
            case .lengthOverrun(let declared, let available):
                "NAL unit claims \(declared) bytes but only \(available) remain; the video tag is corrupt"
            }
        }
    }

    /// Appends `annexB`'s NAL units to `buffer`, each prefixed with its 4-byte big-endian length.
    public static func writeLengthPrefixed(annexB: [UInt8], into buffer: inout ByteBuffer) {
        annexB.withUnsafeBufferPointer { bytes in
            for range in AnnexB.ranges(in: bytes) {
                buffer.writeInteger(UInt32(range.count))
                buffer.writeBytes(UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: bytes[range])))
            }
        }
    }

    /// The NAL units of a length-prefixed buffer (`lengthSize` bytes per length, usually 4).
    public static func split(lengthPrefixed buffer: ByteBuffer, lengthSize: Int = 4) throws(Error) -> [ByteBuffer] {
        var body = buffer
        var units: [ByteBuffer] = []
        while body.readableBytes >= lengthSize {
            var length = 0
            for _ in 0..<lengthSize { length = length << 8 | Int(body.readInteger(as: UInt8.self)!) }
            guard let unit = body.readSlice(length: length) else {
                throw .lengthOverrun(declared: length, available: body.readableBytes)
            }
            units.append(unit)
        }
        return units
    }

    /// Length-prefixed NAL units as one Annex-B buffer with 4-byte start codes.
    public static func annexB(fromLengthPrefixed buffer: ByteBuffer, lengthSize: Int = 4) throws(Error) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(buffer.readableBytes + 16)
        for unit in try split(lengthPrefixed: buffer, lengthSize: lengthSize) {
            out.append(contentsOf: [0, 0, 0, 1])
            out.append(contentsOf: unit.readableBytesView)
        }
        return out
    }
}
