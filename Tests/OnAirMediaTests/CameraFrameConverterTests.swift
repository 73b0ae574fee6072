import Foundation
import Testing
@testable import OnAirMedia

@Suite("camera buffers → I420: YUYV, NV12, padded YU12, MJPEG")
struct CameraFrameConverterTests {
    static let width = 320, height = 180
    static let original = TestPattern(width: width, height: height, framesPerSecond: 30).render(frameIndex: 3)

    static func plane(_ frame: VideoFrame, _ index: Int) -> ArraySlice<UInt8> {
        switch index {
        case 0: return frame.planes[0..<frame.lumaCount]
        case 1: return frame.planes[frame.lumaCount..<(frame.lumaCount + frame.chromaCount)]
        default: return frame.planes[(frame.lumaCount + frame.chromaCount)...]
        }
    }

    static func convert(_ bytes: [UInt8], fourCC code: String, bytesPerLine: Int) throws -> VideoFrame {
        let converter = try CameraFrameConverter(
            device: "/dev/video-test", pixelFormat: fourCC(code), width: width, height: height, bytesPerLine: bytesPerLine)
        return try bytes.withUnsafeBytes { try converter.convert($0, capture: 5, sequence: 7) }
    }

    @Test("YUYV 4:2:2 (each chroma row used for two lines) converts back to the same luma and chroma")
    func yuyv() throws {
        let source = Self.original
        var yuyv: [UInt8] = []
        for y in 0..<Self.height {
            for x in stride(from: 0, to: Self.width, by: 2) {
                let chroma = (y / 2) * source.chromaWidth + x / 2
                yuyv += [source.planes[y * Self.width + x], Self.plane(source, 1)[source.lumaCount + chroma],
                         source.planes[y * Self.width + x + 1], Self.plane(source, 2)[source.lumaCount + source.chromaCount + chroma]]
            }
        }
        let frame = try Self.convert(yuyv, fourCC: "YUYV", bytesPerLine: Self.width * 2)
        #expect(frame.captureNanoseconds == 5 && frame.sequenceNumber == 7)
        #expect(Self.plane(frame, 0) == Self.plane(source, 0))
        #expect(Quality.psnr(source, frame) > 45)
    }

    @Test("NV12 (interleaved chroma) converts to exactly the original planes")
    func nv12() throws {
        let source = Self.original
        let u = Self.plane(source, 1), v = Self.plane(source, 2)
        let interleaved = zip(u, v).flatMap { [$0, $1] }
        let frame = try Self.convert(Array(Self.plane(source, 0)) + interleaved, fourCC: "NV12", bytesPerLine: Self.width)
        #expect(frame.planes == source.planes)
    }

    @Test("YU12 with a padded line stride (bytesperline > width) converts to exactly the original planes")
    func paddedYU12() throws {
        let source = Self.original
        let stride = Self.width + 64
        var bytes: [UInt8] = []
        for row in 0..<Self.height { bytes += source.planes[(row * Self.width)..<((row + 1) * Self.width)] + [UInt8](repeating: 0xEE, count: 64) }
        for plane in 1...2 {
            let data = Array(Self.plane(source, plane))
            for row in 0..<source.chromaHeight {
                bytes += data[(row * source.chromaWidth)..<((row + 1) * source.chromaWidth)] + [UInt8](repeating: 0xEE, count: 32)
            }
        }
        let frame = try Self.convert(bytes, fourCC: "YU12", bytesPerLine: stride)
        #expect(frame.planes == source.planes)
    }

    @Test("a short driver buffer is an error naming the device, not a crash")
    func shortBuffer() throws {
        #expect(throws: MediaError.self) { try Self.convert([UInt8](repeating: 0, count: 100), fourCC: "YUYV", bytesPerLine: Self.width * 2) }
    }

    @Test("a driver's hostile geometry is refused naming the device: a side of 0 or past 8192, lines shorter than a row or absurdly long", arguments: [
        ("YUYV", 1280, 720, 1280 * 2 - 2), ("YUYV", 5, 4, 10), ("NV12", 33, 4, 33), ("YU12", 641, 4, 641), ("YUYV", 0, 720, 0),
        ("YUYV", 1280, 0, 2560), ("NV12", 8193, 4, 8194), ("YUYV", 16, 16, Int(Int32.max)), ("YU12", 16, 16, -16),
    ])
    func hostileGeometry(fourCC code: String, width: Int, height: Int, bytesPerLine: Int) {
        #expect {
            _ = try CameraFrameConverter(device: "/dev/video-test", pixelFormat: fourCC(code), width: width, height: height, bytesPerLine: bytesPerLine)
        } throws: { error in
            guard case MediaError.notACaptureDevice(let path, let reason) = error else { return false }
            return path == "/dev/video-test" && reason.contains("the driver")
        }
    }

    @Test("the shortest lines a format allows are taken: 4 bytes a YUYV pixel pair, 2 a 4:2:0 chroma pair")
    func shortestLines() throws {
        for (code, width, bytesPerLine) in [("YUYV", 5, 12), ("NV12", 33, 34), ("YU12", 640, 640)] {
            _ = try CameraFrameConverter(device: "/dev/video-test", pixelFormat: fourCC(code), width: width, height: 4, bytesPerLine: bytesPerLine)
        }
        _ = try CameraFrameConverter(device: "/dev/video-test", pixelFormat: fourCC("MJPG"), width: 1280, height: 720, bytesPerLine: 0)
    }

    @Test("MJPEG (as USB cameras send it for HD) decodes through libavcodec to within 30 dB of the original")
    func mjpeg() throws {
        let files = try TestFiles()
        let raw = try files.write("frame.yuv", Self.original.planes)
        let jpeg = files.path("frame.jpg")
        try files.ffmpeg(["-f", "rawvideo", "-pix_fmt", "yuv420p", "-s", "\(Self.width)x\(Self.height)", "-i", raw,
                          "-c:v", "mjpeg", "-q:v", "2", "-f", "mjpeg", "-y", jpeg])
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: jpeg)))
        let frame = try Self.convert(bytes, fourCC: "MJPG", bytesPerLine: 0)
        let psnr = Quality.psnr(Self.original, frame)
        print("MJPEG camera path 320x180 q2: PSNR \(psnr) dB")
        #expect(psnr > 30)
    }

    @Test("an MJPEG frame whose header names more than four times the granted area is refused, not decoded into a picture that size")
    func mjpegLargerThanGranted() throws {
        let files = try TestFiles()
        let jpeg = files.path("large.jpg")
        try files.ffmpeg(["-f", "lavfi", "-i", "testsrc=size=\(Self.width * 2 + 16)x\(Self.height * 2 + 16)", "-frames:v", "1",
                          "-f", "mjpeg", "-y", jpeg])
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: jpeg)))
        #expect(throws: MediaError.self) { try Self.convert(bytes, fourCC: "MJPG", bytesPerLine: 0) }
    }
}
