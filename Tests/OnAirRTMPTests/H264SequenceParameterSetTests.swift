import OnAirRTMP
import Testing

@Suite("H.264 SPS")
struct H264SequenceParameterSetTests {
    /// SPS NAL units produced by libx264 (via ffmpeg) for these sizes and profiles.
    static let samples: [(width: Int, height: Int, profile: UInt8, sps: [UInt8])] = [
        (1920, 1080, 100, [0x67, 0x64, 0x00, 0x28, 0xAC, 0xD9, 0x40, 0x78, 0x02, 0x27, 0xE5, 0xC0, 0x44, 0x00, 0x00, 0x03, 0x00, 0x04, 0x00, 0x00, 0x03, 0x00, 0xC8, 0x3C, 0x60, 0xC6, 0x58]),
        (640, 360, 66, [0x67, 0x42, 0xC0, 0x1E, 0xD9, 0x00, 0xA0, 0x2F, 0xF9, 0x70, 0x11, 0x00, 0x00, 0x03, 0x00, 0x01, 0x00, 0x00, 0x03, 0x00, 0x32, 0x0F, 0x16, 0x2E, 0x48]),
        (322, 242, 244, [0x67, 0xF4, 0x00, 0x0D, 0x91, 0x9B, 0x28, 0x2A, 0x10, 0xF1, 0xF1, 0xF8, 0x08, 0x80, 0x00, 0x00, 0x03, 0x00, 0x80, 0x00, 0x00, 0x19, 0x07, 0x8A, 0x14, 0xCB]),
        (176, 144, 77, [0x67, 0x4D, 0x40, 0x0B, 0xEC, 0xA1, 0x62, 0x76, 0x02, 0x20, 0x00, 0x00, 0x03, 0x00, 0x20, 0x00, 0x00, 0x06, 0x41, 0xE2, 0x85, 0x32, 0xC0]),
    ]

    @Test("size and profile come out of real x264 SPS units, cropping included")
    func sizes() throws {
        for sample in Self.samples {
            let sps = try #require(H264SequenceParameterSet(sample.sps))
            #expect(sps.width == sample.width)
            #expect(sps.height == sample.height)
            #expect(sps.profileIndication == sample.profile)
        }
    }

    @Test("truncated, wrong-type and garbage SPS units give nil, never a trap")
    func malformed() {
        let good = Self.samples[0].sps
        let full = H264SequenceParameterSet(good)
        // Only the fields up to frame cropping are read: a cut inside the VUI still parses, to the same size.
        var firstParsing = good.count
        for cut in (0..<good.count).reversed() {
            guard let parsed = H264SequenceParameterSet(Array(good.prefix(cut))) else { continue }
            #expect(parsed == full)
            firstParsing = cut
        }
        #expect(firstParsing > 6)
        #expect(H264SequenceParameterSet(Array(good.prefix(firstParsing - 1))) == nil)
        #expect(H264SequenceParameterSet([0x68] + good.dropFirst()) == nil)
        #expect(H264SequenceParameterSet([0x67, 0x64, 0, 0x28] + Array(repeating: 0, count: 64)) == nil)
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<500 {
            let bytes = [0x67] + (0..<Int.random(in: 3..<40, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) }
            if let parsed = H264SequenceParameterSet(bytes) {
                #expect(parsed.width > 0 && parsed.width <= 16_384)
                #expect(parsed.height > 0 && parsed.height <= 32_768)
            }
        }
    }
}
