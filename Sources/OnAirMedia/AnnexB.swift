/// Annex-B byte streams (ITU-T H.264 Annex B): NAL units separated by 00 00 01 / 00 00 00 01 start codes.
///
/// libx264 writes its GLOBAL_HEADER extradata and every packet this way (PLATFORM-NOTES.md); the track
/// description wants bare SPS/PPS NAL units, and tests want to see which NAL types a packet holds.
public enum AnnexB {
    /// H.264 nal_unit_type values used here (H.264 Table 7-1).
    public enum NALType: UInt8, Sendable {
        case nonIDRSlice = 1
        case idrSlice = 5
        case sei = 6
        case sequenceParameterSet = 7
        case pictureParameterSet = 8
        case accessUnitDelimiter = 9
    }

    /// The NAL units of `stream`, without start codes.
    public static func nalUnits(_ stream: [UInt8]) -> [[UInt8]] {
        var units: [[UInt8]] = []
        var index = 0
        var start: Int?
        let count = stream.count
        while index + 2 < count {
            if stream[index] == 0, stream[index + 1] == 0, stream[index + 2] == 1 {
                if let start {
                    var end = index
                    if end > start, stream[end - 1] == 0 { end -= 1 } // the first zero of a 4-byte start code
                    units.append(Array(stream[start..<end]))
                }
                index += 3
                start = index
            } else {
                index += 1
            }
        }
        if let start, start < count { units.append(Array(stream[start..<count])) }
        return units
    }

    /// The nal_unit_type of each NAL unit in `stream`.
    public static func nalTypes(_ stream: [UInt8]) -> [UInt8] {
        nalUnits(stream).compactMap { $0.first.map { $0 & 0x1F } }
    }

    /// `units` joined with 4-byte start codes: what a decoder wants as extradata.
    public static func join(_ units: [[UInt8]]) -> [UInt8] {
        units.flatMap { [0, 0, 0, 1] + $0 }
    }
}
