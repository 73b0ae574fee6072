/// H.264 sequence parameter sets a hostile publisher sends, built bit by bit (ITU-T H.264 §7.3.2.1.1):
/// Baseline profile, 4:2:0, frame_mbs_only, no VUI; optionally cropped so a huge coded picture shows small.
public enum HostileSPS {
    /// A bare SPS NAL unit (header byte 0x67) coding `widthInMacroblocks`×`heightInMacroblocks` and cropping
    /// `cropRight`/`cropBottom` pixels off (even numbers: 4:2:0 crops in units of two).
    public static func make(widthInMacroblocks: Int, heightInMacroblocks: Int, cropRight: Int = 0, cropBottom: Int = 0,
                            referenceFrames: Int = 1, id: Int = 0) -> [UInt8] {
        var bits: [Bool] = []
        func unsigned(_ value: Int, _ count: Int) { for shift in (0..<count).reversed() { bits.append(value >> shift & 1 == 1) } }
        func golomb(_ value: Int) {
            let coded = value + 1
            let length = Int.bitWidth - coded.leadingZeroBitCount
            unsigned(0, length - 1)
            unsigned(coded, length)
        }
        unsigned(66, 8); unsigned(0xC0, 8); unsigned(51, 8)            // profile, constraints, level 5.1
        golomb(id); golomb(0); golomb(2); golomb(referenceFrames)      // sps id, log2_max_frame_num−4, poc type 2, refs
        unsigned(0, 1)                                                 // gaps_in_frame_num_allowed
        golomb(widthInMacroblocks - 1); golomb(heightInMacroblocks - 1)
        unsigned(1, 1); unsigned(1, 1)                                 // frame_mbs_only, direct_8x8
        let cropping = cropRight > 0 || cropBottom > 0
        unsigned(cropping ? 1 : 0, 1)
        if cropping { golomb(0); golomb(cropRight / 2); golomb(0); golomb(cropBottom / 2) }
        unsigned(0, 1)                                                 // no VUI
        bits.append(true)                                              // rbsp_stop_one_bit
        while bits.count % 8 != 0 { bits.append(false) }
        var bytes: [UInt8] = [0x67]
        for start in stride(from: 0, to: bits.count, by: 8) {
            bytes.append(bits[start..<start + 8].reduce(0) { $0 << 1 | ($1 ? 1 : 0) })
        }
        // Emulation prevention (§7.4.1): no 00 00 0x (x ≤ 3) inside the payload.
        var escaped: [UInt8] = []
        var zeros = 0
        for byte in bytes {
            if zeros >= 2, byte <= 3 {
                escaped.append(3)
                zeros = 0
            }
            escaped.append(byte)
            zeros = byte == 0 ? zeros + 1 : 0
        }
        return escaped
    }

    /// The hostile SPS: coded 16368×8000 (1023×500 macroblocks), shown cropped to 640×352.
    public static func croppedHuge(referenceFrames: Int = 1, id: Int = 0) -> [UInt8] {
        make(widthInMacroblocks: 1023, heightInMacroblocks: 500, cropRight: 16368 - 640, cropBottom: 8000 - 352,
             referenceFrames: referenceFrames, id: id)
    }
}
