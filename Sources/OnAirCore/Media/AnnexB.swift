/// H.264 byte streams (ITU-T H.264 Annex B): NAL units separated by `00 00 01` / `00 00 00 01` start codes.
///
/// libx264 writes its extradata and every packet this way, and `EncodedPacket` carries video so; the media
/// engine needs the bare SPS/PPS out of it and the FLV layer re-frames it with length prefixes. Both use
/// this one scanner, which lives in the core because it is pure byte arithmetic.
public enum AnnexB {
    /// nal_unit_type values OnAir looks at (ITU-T H.264 Table 7-1).
    public enum NALType: UInt8, Sendable {
        case nonIDRSlice = 1
        case idrSlice = 5
        case sei = 6
        case sequenceParameterSet = 7
        case pictureParameterSet = 8
        case accessUnitDelimiter = 9
    }

    /// The NAL units of an Annex-B byte stream (3- or 4-byte start codes), as ranges without start codes.
    ///
    /// Scans with a stride of up to 3 bytes (a start code's `00 00 01` must contain a zero at every third
    /// position), so multi-megabyte frames cost a fraction of a byte-by-byte loop.
    public static func ranges(in bytes: UnsafeBufferPointer<UInt8>) -> [Range<Int>] {
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

    /// The NAL units of `stream`, without start codes.
    public static func split(_ stream: [UInt8]) -> [ArraySlice<UInt8>] {
        stream.withUnsafeBufferPointer { ranges(in: $0) }.map { stream[$0] }
    }

    /// The NAL units of `stream`, without start codes, as arrays.
    public static func nalUnits(_ stream: [UInt8]) -> [[UInt8]] {
        split(stream).map(Array.init)
    }

    /// The nal_unit_type of each NAL unit in `stream`.
    public static func nalTypes(_ stream: [UInt8]) -> [UInt8] {
        split(stream).compactMap { $0.first.map { $0 & 0x1F } }
    }

    /// `units` joined with 4-byte start codes: what a decoder wants as extradata.
    public static func join(_ units: [[UInt8]]) -> [UInt8] {
        units.flatMap { [0, 0, 0, 1] + $0 }
    }
}
