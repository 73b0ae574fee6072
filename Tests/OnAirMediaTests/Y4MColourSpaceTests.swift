import Foundation
import Testing
@testable import OnAirMedia

/// Y4M clips as `ffmpeg -i IN OUT.y4m` writes them from 4:2:2, 4:4:4, 10/12-bit, greyscale or alpha sources:
/// converted to the encoder's 4:2:0 byte for byte as ffmpeg's `-pix_fmt yuv420p` converts them, frame by frame.
@Suite("Y4M colour spaces: every layout ffmpeg writes reads as 4:2:0")
struct Y4MColourSpaceTests {
    /// Mean squared error of two byte planes, as PSNR in dB (infinite when equal).
    private static func psnr(_ a: ArraySlice<UInt8>, _ b: ArraySlice<UInt8>) -> Double {
        let squares = zip(a, b).reduce(0.0) { sum, pair in let d = Double(pair.0) - Double(pair.1); return sum + d * d }
        let mse = squares / Double(max(1, a.count))
        return mse == 0 ? .infinity : 10 * log10(255 * 255 / mse)
    }

    static let layouts: [(pixelFormat: String, tag: String)] = [
        ("yuv422p", "C422"), ("yuv444p", "C444"), ("gray", "Cmono"), ("gray16le", "Cmono16"), ("yuva444p", "C444alpha"),
        ("yuv420p10le", "C420p10"), ("yuv422p10le", "C422p10"), ("yuv444p10le", "C444p10"), ("yuv420p12le", "C420p12"),
    ]

    @Test("each layout reads as ffmpeg's own conversion to yuv420p, byte for byte, every frame in order", arguments: layouts)
    func matchesFFmpeg(pixelFormat: String, tag: String) throws {
        let files = try TestFiles()
        // An odd size: chroma planes round up, as they do in the file.
        try files.ffmpeg(["-f", "lavfi", "-i", "testsrc2=size=162x91:rate=10", "-frames:v", "4", "-pix_fmt", pixelFormat,
                          "-strict", "-1", files.path("clip.y4m")])
        try files.ffmpeg(["-i", files.path("clip.y4m"), "-pix_fmt", "yuv420p", files.path("reference.y4m")])
        let header = try String(decoding: Data(contentsOf: URL(fileURLWithPath: files.path("clip.y4m"))).prefix(80), as: UTF8.self)
        #expect(header.contains(" \(tag)"), "ffmpeg wrote \(header)")
        let clip = try Y4MFileSource(path: files.path("clip.y4m"), pacing: .unpaced)
        let reference = try Y4MFileSource(path: files.path("reference.y4m"), pacing: .unpaced)
        #expect(clip.frameCount == 4 && reference.frameCount == 4)
        #expect(clip.granted.pixelFormat == "y4m \(tag.dropFirst())")
        for index in 0..<4 {
            let frame = try clip.read().planes, expected = try reference.read().planes
            #expect(frame.count == expected.count)
            let lumaCount = 162 * 91
            let luma = Self.psnr(frame[..<lumaCount], expected[..<lumaCount])
            let chroma = Self.psnr(frame[lumaCount...], expected[lumaCount...])
            // Both sides are libswscale with ffmpeg's flags for a format conversion: the same bytes.
            let same = frame == expected
            #expect(same, "frame \(index) differs from ffmpeg's: luma \(luma) dB, chroma \(chroma) dB")
        }
    }

    @Test("a converted clip cut while playing fails the track with the truncation message")
    func truncatedWhileConverting() throws {
        let files = try TestFiles()
        try files.ffmpeg(["-f", "lavfi", "-i", "testsrc2=size=64x48:rate=10", "-frames:v", "3", "-pix_fmt", "yuv444p", files.path("clip.y4m")])
        let clip = try Y4MFileSource(path: files.path("clip.y4m"), pacing: .unpaced)
        _ = try clip.read()
        let size = try #require(try FileManager.default.attributesOfItem(atPath: files.path("clip.y4m"))[.size] as? Int)
        #expect(truncate(files.path("clip.y4m"), off_t(size - 64 * 48 * 3 - 100)) == 0)
        do {
            _ = try clip.read()
            Issue.record("a frame was read past the cut")
        } catch let MediaError.fileUnreadable(_, reason) {
            #expect(reason.contains("frame 1 is truncated"), "\(reason)")
        }
    }

    @Test("a frame's bytes are its planes' bytes, rounding odd chroma sides up", arguments: [
        ("420jpeg", 162 * 91 + 2 * 81 * 46), ("422", 162 * 91 + 2 * 81 * 91), ("444", 3 * 162 * 91),
        ("444alpha", 4 * 162 * 91), ("mono", 162 * 91), ("mono16", 2 * 162 * 91), ("420p10", 2 * (162 * 91 + 2 * 81 * 46)),
    ])
    func frameBytes(tag: String, bytes: Int) throws {
        let layout = try #require(Y4MColourSpace(tag: tag))
        #expect(layout.frameBytes(width: 162, height: 91) == bytes)
        let planes = layout.planes(width: 162, height: 91)
        // The last plane ends where the frame does.
        let last = try #require(planes.last)
        let lastRows = planes.count == 1 || planes.count == 4 || layout.chromaShift.y == 0 ? 91 : 46
        #expect(last.offset + last.stride * lastRows == bytes)
    }
}
