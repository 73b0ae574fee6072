import Foundation
import Testing
@testable import OnAirMedia

/// WAV files as editors write them — 8-bit, 24-bit, 32-bit, float — read to the samples ffmpeg's own
/// conversion to s16 gives (libswresample), mono and stereo, plain and extensible headers.
@Suite("WAV sample formats: every PCM width and float, as ffmpeg converts them")
struct WAVSampleFormatTests {
    /// Reads every sample frame of `path` once.
    private static func samples(_ path: String) throws -> (format: AudioSourceFormat, samples: [Int16]) {
        let source = try WAVFileSource(path: path, pacing: .unpaced)
        return (source.format, try source.read(frames: source.frameCount).samples)
    }

    static let codecCases: [(String, Int)] = [
        ("pcm_u8", 1), ("pcm_u8", 2), ("pcm_s24le", 1), ("pcm_s24le", 2), ("pcm_s32le", 2),
        ("pcm_f32le", 1), ("pcm_f32le", 2), ("pcm_f64le", 2), ("pcm_s16le", 2),
    ]

    @Test("each codec reads to exactly what ffmpeg makes of it as pcm_s16le", arguments: codecCases)
    func matchesFFmpeg(codec: String, channels: Int) throws {
        let files = try TestFiles()
        // A sweep up to full scale and past it (the float formats clip), and a quiet tail: every code path of
        // the conversion sees large, small and negative samples.
        let source = "aevalsrc=exprs='1.2*sin(2*PI*(200+600*t)*t)*exp(-3*t)|0.7*sin(2*PI*331*t)':sample_rate=44100:duration=1"
        try files.ffmpeg(["-f", "lavfi", "-i", source, "-ac", "\(channels)", "-c:a", codec, files.path("in.wav")])
        try files.ffmpeg(["-i", files.path("in.wav"), "-c:a", "pcm_s16le", files.path("reference.wav")])
        let read = try Self.samples(files.path("in.wav"))
        let reference = try Self.samples(files.path("reference.wav"))
        #expect(read.format == AudioSourceFormat(sampleRate: 44_100, channels: channels))
        #expect(read.samples.count == 44_100 * channels)
        let differing = zip(read.samples, reference.samples).enumerated().filter { $0.element.0 != $0.element.1 }
        let firstDifferences = differing.prefix(3).map { "#\($0.offset): \($0.element.0) vs \($0.element.1)" }
        let differingCount = differing.count
        #expect(differingCount == 0, "samples that differ from ffmpeg's, the first: \(firstDifferences)")
        #expect(read.samples.contains { $0 > 20_000 } && read.samples.contains { $0 < -20_000 }, "the sweep did not reach full scale")
    }

    @Test("24 valid bits in a 32-bit container keep their top 16 bits; an extensible header names the sub-format")
    func paddedContainer() throws {
        let files = try TestFiles()
        func le16(_ value: UInt16) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8)] }
        func le32(_ value: UInt32) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: value >> ($0 * 8)) } }
        // WAVE_FORMAT_EXTENSIBLE: 40-byte fmt, 24 valid bits of 32, sub-format GUID starting with PCM's tag 1.
        var fmt = le16(0xFFFE) + le16(1) + le32(48_000) + le32(48_000 * 4) + le16(4) + le16(32)
        fmt += le16(22) + le16(24) + le32(4) + le16(1) + [0, 0, 0, 0, 0x10, 0, 0x80, 0, 0, 0xAA, 0, 0x38, 0x9B, 0x71]
        let values: [Int32] = [0x7FFF_FF00, -0x8000_0000, 0x0001_2300, -0x0001_2300, 0]
        let data = values.flatMap { le32(UInt32(bitPattern: $0)) }
        let body = Array("WAVE".utf8) + Array("fmt ".utf8) + le32(UInt32(fmt.count)) + fmt + Array("data".utf8) + le32(UInt32(data.count)) + data
        let path = try files.write("padded.wav", Array("RIFF".utf8) + le32(UInt32(body.count)) + body)
        #expect(try Self.samples(path).samples == [0x7FFF, -0x8000, 0x0001, -0x0002, 0])
    }

    static let floatCases: [(Double, Int16)] = [
        (1.0, Int16.max), (-1.0, Int16.min), (2.5, Int16.max), (-7.0, Int16.min), (0.5 / 32_768, 0), (1.5 / 32_768, 2),
        (-0.25, -8_192), (Double.nan, 0), (Double.infinity, Int16.max), (-Double.infinity, Int16.min),
    ]

    @Test("floats scale by 2^15, round to nearest even and clip; NaN is silence", arguments: floatCases)
    func floatRounding(value: Double, expected: Int16) {
        #expect(WAVSampleFormat.clipped(value) == expected)
    }

    /// (format tag, bits per sample, block alignment, channels).
    static let refusedCases: [(Int, Int, Int, Int)] = [
        (1, 16, 0, 2), (1, 16, 3, 2), (1, 40, 5, 1), (1, 17, 2, 1), (3, 16, 2, 1), (3, 32, 8, 1), (3, 64, 12, 2),
        (2, 4, 1, 1), (1, 16, 4, 0), (1, 0, 2, 1), (0x55, 16, 2, 1),
    ]

    @Test("a fmt chunk OnAir cannot read is refused, never a division by zero or an index past the block", arguments: refusedCases)
    func refused(tag: Int, bits: Int, blockAlign: Int, channels: Int) {
        #expect(WAVSampleFormat(tag: tag, bitsPerSample: bits, blockAlign: blockAlign, channels: channels) == nil)
    }

    static let acceptedCases: [(Int, Int, Int, Int, String)] = [
        (1, 8, 1, 1, "PCM u8"), (1, 16, 4, 2, "PCM s16"), (1, 24, 6, 2, "PCM s24"), (1, 24, 4, 1, "PCM s32"),
        (1, 12, 2, 1, "PCM s16"), (3, 32, 8, 2, "float 32-bit"), (3, 64, 8, 1, "float 64-bit"),
    ]

    @Test("what each container reads as", arguments: acceptedCases)
    func accepted(tag: Int, bits: Int, blockAlign: Int, channels: Int, description: String) {
        #expect(WAVSampleFormat(tag: tag, bitsPerSample: bits, blockAlign: blockAlign, channels: channels)?.description == description)
    }
}
