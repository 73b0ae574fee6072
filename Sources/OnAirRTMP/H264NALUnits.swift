import NIOCore

/// Conversions between H.264 byte-stream (Annex-B, start codes) and the 4-byte length-prefixed NAL units
/// that FLV/RTMP carry (ISO/IEC 14496-15 §5.3.4.2 with lengthSizeMinusOne = 3).
///
/// OnAir's encoders and decoders use Annex-B (``OnAirCore/EncodedPacket``); the conversion happens only here,
/// at the FLV boundary.
public enum H264NALUnits {
    /// nal_unit_type values that the FLV layer cares about (ITU-T H.264 Table 7-1).
    public enum NALUnitType: UInt8, Sendable {
        case nonIDRSlice = 1
        case idrSlice = 5
        case sei = 6
        case sequenceParameterSet = 7
        case pictureParameterSet = 8
        case accessUnitDelimiter = 9
    }

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

    /// The NAL units of an Annex-B byte stream (3- or 4-byte start codes), as ranges without start codes.
    ///
    /// Scans with a stride of up to 3 bytes (a start code's `00 00 01` must contain a zero at every third
    /// position), so multi-megabyte frames cost a fraction of a byte-by-byte loop.
    public static func ranges(annexB bytes: UnsafeBufferPointer<UInt8>) -> [Range<Int>] {
        var units: [Range<Int>] = []
        let count = bytes.count
        var index = 2
        var start: Int?
        while index < count {
            let byte = bytes[index]
            if byte > 1 {
                index += 3
            } else if byte == 0 {
                index += 1
            } else if bytes[index - 1] == 0, bytes[index - 2] == 0 {
                let codeStart = index - 2
                if let begin = start {
                    var end = codeStart
                    while end > begin, bytes[end - 1] == 0 { end -= 1 }   // trailing zero of a 4-byte code
                    if end > begin { units.append(begin..<end) }
                }
                start = index + 1
                index += 3
            } else {
                index += 3
            }
        }
        if let begin = start {
            if begin < count { units.append(begin..<count) }
        } else if count > 0 {
            units.append(0..<count)     // no start code at all: treat the bytes as one NAL unit
        }
        return units
    }

    /// The NAL units of an Annex-B byte stream, without start codes.
    public static func split(annexB bytes: [UInt8]) -> [ArraySlice<UInt8>] {
        bytes.withUnsafeBufferPointer { ranges(annexB: $0) }.map { bytes[$0] }
    }

    /// Appends `annexB`'s NAL units to `buffer`, each prefixed with its 4-byte big-endian length.
    public static func writeLengthPrefixed(annexB: [UInt8], into buffer: inout ByteBuffer) {
        annexB.withUnsafeBufferPointer { bytes in
            for range in ranges(annexB: bytes) {
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
