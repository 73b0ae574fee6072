import OnAirCore

/// The picture size coded in an H.264 sequence parameter set (ITU-T H.264 §7.3.2.1.1, §7.4.2.1.1).
///
/// A player learns the size from the AVC sequence header even when `onMetaData` is missing or rebuilt
/// (nginx-rtmp's `meta on`). The parser reads only up to the cropping fields, removes emulation-prevention
/// bytes first (§7.4.1), and returns `nil` for anything malformed instead of trapping: Exp-Golomb codes
/// longer than 32 bits and absurd counts are refused.
public struct H264SequenceParameterSet: Sendable, Equatable {
    public var profileIndication: UInt8
    public var levelIndication: UInt8
    /// Displayed width and height in pixels, after frame cropping.
    public var width: Int
    public var height: Int
    /// The coded (uncropped) size: what a decoder allocates every frame at, however small the cropped
    /// picture (a 16368×8000 SPS cropped to 640×352 still costs 196 MB a frame; issue 29).
    public var codedWidth: Int
    public var codedHeight: Int

    /// profile_idc values whose SPS carries chroma_format_idc and bit depths (§7.3.2.1.1).
    static let highProfiles: Set<Int> = [100, 110, 122, 244, 44, 83, 86, 118, 128, 138, 139, 134, 135]
    /// Largest dimension in macroblocks accepted (level 6.2 allows 139 264 MBs per frame; 1024 MBs = 16 384 px).
    static let maxMacroblocksPerSide = 1024

    /// Parses a bare SPS NAL unit (starting with its NAL header byte, nal_unit_type 7).
    public init?(_ nal: [UInt8]) {
        guard nal.count >= 4, nal[0] & 0x1F == AnnexB.NALType.sequenceParameterSet.rawValue else { return nil }
        var bits = ExpGolombReader(Self.removingEmulationPrevention(nal.dropFirst()))
        guard let profile = bits.bits(8), bits.bits(8) != nil, let level = bits.bits(8), bits.ue() != nil else { return nil }
        var chromaFormat = 1
        var separateColourPlanes = false
        if Self.highProfiles.contains(profile) {
            guard let format = bits.ue(), format <= 3 else { return nil }
            chromaFormat = format
            if format == 3 { separateColourPlanes = bits.bits(1) == 1 }
            guard bits.ue() != nil, bits.ue() != nil, bits.bits(1) != nil, let scaling = bits.bits(1) else { return nil }
            if scaling == 1 {
                for index in 0..<(chromaFormat == 3 ? 12 : 8) {
                    guard let present = bits.bits(1) else { return nil }
                    if present == 1, !bits.skipScalingList(size: index < 6 ? 16 : 64) { return nil }
                }
            }
        }
        guard bits.ue() != nil, let pocType = bits.ue() else { return nil }
        if pocType == 0 {
            guard bits.ue() != nil else { return nil }
        } else if pocType == 1 {
            guard bits.bits(1) != nil, bits.se() != nil, bits.se() != nil, let cycle = bits.ue(), cycle <= 255 else { return nil }
            for _ in 0..<cycle { guard bits.se() != nil else { return nil } }
        } else if pocType != 2 {
            return nil
        }
        guard bits.ue() != nil, bits.bits(1) != nil, let widthMBs = bits.ue(), let heightUnits = bits.ue(),
              let frameMBsOnly = bits.bits(1),
              widthMBs < Self.maxMacroblocksPerSide, heightUnits < Self.maxMacroblocksPerSide else { return nil }
        if frameMBsOnly == 0 { guard bits.bits(1) != nil else { return nil } }
        guard bits.bits(1) != nil, let cropping = bits.bits(1) else { return nil }
        var crop = (left: 0, right: 0, top: 0, bottom: 0)
        if cropping == 1 {
            guard let left = bits.ue(), let right = bits.ue(), let top = bits.ue(), let bottom = bits.ue() else { return nil }
            crop = (left, right, top, bottom)
        }
        // Crop units (§7.4.2.1.1, Table 6-1): chroma subsampling times the field factor.
        let fieldFactor = 2 - frameMBsOnly
        let (subWidth, subHeight) = separateColourPlanes || chromaFormat == 0 ? (1, 1)
            : chromaFormat == 1 ? (2, 2) : chromaFormat == 2 ? (2, 1) : (1, 1)
        let width = (widthMBs + 1) * 16 - subWidth * (crop.left + crop.right)
        let height = fieldFactor * (heightUnits + 1) * 16 - subHeight * fieldFactor * (crop.top + crop.bottom)
        guard width > 0, height > 0 else { return nil }
        self.profileIndication = UInt8(profile)
        self.levelIndication = UInt8(level)
        self.width = width
        self.height = height
        codedWidth = (widthMBs + 1) * 16
        codedHeight = fieldFactor * (heightUnits + 1) * 16
    }

    /// Drops each 0x03 that follows two zero bytes (emulation_prevention_three_byte, §7.4.1).
    static func removingEmulationPrevention(_ bytes: ArraySlice<UInt8>) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var zeros = 0
        for byte in bytes {
            if zeros >= 2, byte == 3 {
                zeros = 0
                continue
            }
            zeros = byte == 0 ? zeros + 1 : 0
            out.append(byte)
        }
        return out
    }

    /// Reads fixed-width fields and Exp-Golomb codes (§9.1) MSB first.
    struct ExpGolombReader {
        let bytes: [UInt8]
        var position = 0

        init(_ bytes: [UInt8]) { self.bytes = bytes }

        mutating func bits(_ count: Int) -> Int? {
            guard count <= 32, position + count <= bytes.count * 8 else { return nil }
            var value = 0
            for _ in 0..<count {
                value = value << 1 | Int((bytes[position >> 3] >> (7 - UInt8(position & 7))) & 1)
                position += 1
            }
            return value
        }

        /// ue(v): leading zeros, a one, then as many bits; longer than 31 zeros is malformed.
        mutating func ue() -> Int? {
            var zeros = 0
            while true {
                guard let bit = bits(1) else { return nil }
                if bit == 1 { break }
                zeros += 1
                guard zeros <= 31 else { return nil }
            }
            guard let rest = bits(zeros) else { return nil }
            return (1 << zeros) - 1 + rest
        }

        /// se(v): ue mapped to 0, 1, −1, 2, −2 …
        mutating func se() -> Int? {
            guard let code = ue() else { return nil }
            return code % 2 == 1 ? (code + 1) / 2 : -(code / 2)
        }

        /// scaling_list() (§7.3.2.1.1.1): only the deltas are read.
        mutating func skipScalingList(size: Int) -> Bool {
            var last = 8, next = 8
            for _ in 0..<size where next != 0 {
                guard let delta = se() else { return false }
                next = (last + delta + 256) % 256
                last = next == 0 ? last : next
            }
            return true
        }
    }
}
