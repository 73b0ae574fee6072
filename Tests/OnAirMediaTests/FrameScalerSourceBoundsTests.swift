import CFFmpeg
import Foundation
import Glibc
import OnAirTestSupport
@testable import OnAirMedia
import Testing

/// libswscale's SIMD input readers may read up to 32 bytes past a source row's end at odd or tiny widths
/// (a C probe with the source ending at a `PROT_NONE` page, session 19). A tight picture whose last byte ends
/// a page with nothing mapped after it — a camera buffer, a mapped clip frame — would then end the process.
/// `FrameScaler.scale` reads such a source from a padded copy unless the caller says the bytes after it are
/// readable. Each conversion runs in a child process, so a fault fails the test instead of the test run.
@Suite("FrameScaler source bounds")
struct FrameScalerSourceBoundsTests {
    @Test("a source ending at an unmapped page is converted without reading past it: camera, encoder and preview conversions")
    func sourceEndingAtUnmappedPage() async {
        await #expect(processExitsWith: .success) {
            for (format, width, height) in [
                (AV_PIX_FMT_YUV420P, 2, 2), (AV_PIX_FMT_YUV420P, 5, 3), (AV_PIX_FMT_YUV420P, 6, 4),
                (AV_PIX_FMT_YUV420P, 34, 6), (AV_PIX_FMT_YUYV422, 646, 8), (AV_PIX_FMT_YUYV422, 18, 4),
                (AV_PIX_FMT_NV12, 6, 4), (AV_PIX_FMT_NV12, 34, 6),
            ] {
                for (toWidth, toHeight, toFormat, flags) in [
                    (width, height, AV_PIX_FMT_YUV420P, SWS_BILINEAR), (max(2, width / 2), max(2, height / 2), AV_PIX_FMT_YUV420P, SWS_BILINEAR),
                    (width * 2, height * 2, AV_PIX_FMT_YUV420P, SWS_BICUBIC), (13, 7, AV_PIX_FMT_RGB24, SWS_AREA),
                ] {
                    try GuardedPicture(format: format, width: width, height: height).withPicture { picture in
                        var output = [UInt8](repeating: 0, count: toWidth * toHeight * 3)
                        try output.withUnsafeMutableBufferPointer { out in
                            let base = out.baseAddress!
                            let planes: [UnsafeMutablePointer<UInt8>?] = toFormat == AV_PIX_FMT_RGB24
                                ? [base] : [base, base + toWidth * toHeight, base + toWidth * toHeight + (toWidth + 1) / 2 * ((toHeight + 1) / 2)]
                            let strides: [Int32] = toFormat == AV_PIX_FMT_RGB24
                                ? [Int32(toWidth * 3)] : [Int32(toWidth), Int32((toWidth + 1) / 2), Int32((toWidth + 1) / 2)]
                            try FrameScaler().scale(picture, into: planes, strides: strides, format: toFormat,
                                                    width: toWidth, height: toHeight, flags: flags)
                        }
                    }
                }
            }
        }
    }

    @Test("a camera buffer ending at an unmapped page converts (YUYV, NV12 at odd widths), its mapping's length given")
    func cameraBufferEndingAtUnmappedPage() async {
        await #expect(processExitsWith: .success) {
            for (format, fourCC, width, height) in [
                (AV_PIX_FMT_YUYV422, "YUYV", 18, 4), (AV_PIX_FMT_YUYV422, "YUYV", 646, 8), (AV_PIX_FMT_NV12, "NV12", 34, 6),
            ] {
                let guarded = GuardedPicture(format: format, width: width, height: height)
                let converter = try CameraFrameConverter(
                    device: "/dev/video-test", pixelFormat: OnAirMediaTests.fourCC(fourCC), width: width, height: height,
                    bytesPerLine: Int(GuardedPicture.layout(format: format, width: width, height: height)[0].stride))
                _ = try guarded.withBytes { bytes in try converter.convert(bytes, readableLength: bytes.count, capture: 0, sequence: 0) }
            }
        }
    }

    @Test("a source with readable bytes after it is converted where it is; one without is copied once per frame")
    func copiesOnlyWithoutRoom() throws {
        let scaler = FrameScaler()
        var output = [UInt8](repeating: 0, count: 13 * 7 * 3)
        for (slack, copies) in [(FrameScaler.sourcePadding, 0), (FrameScaler.sourcePadding - 1, 1), (0, 2)] {
            try GuardedPicture(format: AV_PIX_FMT_YUV420P, width: 34, height: 6, slack: slack).withPicture { picture in
                var picture = picture
                picture.readableBytesAfter = slack
                try output.withUnsafeMutableBufferPointer { out in
                    try scaler.scale(picture, into: [out.baseAddress], strides: [13 * 3], format: AV_PIX_FMT_RGB24, width: 13, height: 7, flags: SWS_AREA)
                }
            }
            #expect(scaler.sourceCopies == copies, "slack \(slack)")
        }
    }

    @Test("frames the sources make keep the scaler's padding after the picture, so the encoder and preview copy nothing")
    func framesArePadded() throws {
        for (width, height) in [(5, 3), (2, 2)] {
            #expect(VideoFrame(width: width, height: height).readableBytesAfterPicture >= FrameScaler.sourcePadding)
        }
        for (width, height) in [(1280, 720), (34, 18), (16, 16)] {    // the test pattern's sizes: even, 16x16 up
            #expect(VideoFrame(width: width, height: height).readableBytesAfterPicture >= FrameScaler.sourcePadding)
            let pattern = TestPattern(width: width, height: height, framesPerSecond: 30).render(frameIndex: 1)
            #expect(pattern.readableBytesAfterPicture >= FrameScaler.sourcePadding, "test pattern \(width)x\(height)")
        }
    }

    @Test("a mapped picture's readable bytes after it are the rest of its last page: none when it ends one")
    func mappedPictureSlack() throws {
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        let directory = try TemporaryDirectory()
        let path = directory.url.appendingPathComponent("clip").path
        let descriptor = open(path, O_CREAT | O_RDWR | O_TRUNC, 0o600)
        try #require(descriptor >= 0)
        defer { close(descriptor) }
        try #require(ftruncate(descriptor, off_t(3 * page)) == 0)
        for (offset, count, expected) in [(0, page, 0), (100, page - 100, 0), (6, 100, page - 106), (page + 10, page, page - 10)] {
            let mapped = try #require(MappedPicture(descriptor: descriptor, offset: offset, count: count))
            #expect(mapped.readableBytesAfter == expected, "offset \(offset), \(count) bytes")
        }
    }
}

/// A tight picture whose last byte is `slack` bytes before a `PROT_NONE` page: any read further faults.
struct GuardedPicture {
    let format: AVPixelFormat
    let width: Int
    let height: Int
    var slack = 0

    /// The picture's bytes, every plane one after the other as a camera's buffer holds them.
    func withBytes<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) throws -> Result {
        let layout = Self.layout(format: format, width: width, height: height)
        let count = layout.reduce(0) { $0 + $1.stride * $1.rows }
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        let dataPages = (count + slack + page - 1) / page * page
        guard let region = mmap(nil, dataPages + page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0),
              region != MAP_FAILED else { throw MediaError.system(function: "mmap", errno: errno) }
        defer { munmap(region, dataPages + page) }
        guard mprotect(region + dataPages, page, PROT_NONE) == 0 else { throw MediaError.system(function: "mprotect", errno: errno) }
        let base = (region + dataPages - slack - count).assumingMemoryBound(to: UInt8.self)
        for index in 0..<count { base[index] = UInt8(truncatingIfNeeded: index &* 7 &+ 16) }
        return try body(UnsafeRawBufferPointer(start: base, count: count))
    }

    func withPicture<Result>(_ body: (FrameScaler.Picture) throws -> Result) throws -> Result {
        let layout = Self.layout(format: format, width: width, height: height)
        return try withBytes { bytes in
            let base = bytes.baseAddress!.assumingMemoryBound(to: UInt8.self)
            var offset = 0
            var planes: [UnsafePointer<UInt8>?] = []
            for plane in layout {
                planes.append(UnsafePointer(base + offset))
                offset += plane.stride * plane.rows
            }
            return try body(FrameScaler.Picture(format: format, width: width, height: height, planes: planes,
                                                strides: layout.map { Int32($0.stride) }))
        }
    }

    static func layout(format: AVPixelFormat, width: Int, height: Int) -> [(stride: Int, rows: Int)] {
        let chromaWidth = (width + 1) / 2, chromaHeight = (height + 1) / 2
        switch format {
        case AV_PIX_FMT_YUYV422: return [(chromaWidth * 4, height)]
        case AV_PIX_FMT_NV12: return [(width, height), (chromaWidth * 2, chromaHeight)]
        default: return [(width, height), (chromaWidth, chromaHeight), (chromaWidth, chromaHeight)]
        }
    }
}
