import CFFmpeg
@testable import OnAirMedia
import Testing

/// libswscale's SIMD writes whole vectors, past the end of a row whose width is not a multiple of the vector:
/// into the next plane, or past the end of a tight buffer (FuzzY4MReader's first finding: a 4x4 4:2:2 clip
/// corrupted the heap). `FrameScaler.scale` must write exactly the destination's rows and nothing beyond.
@Suite("FrameScaler bounds")
struct FrameScalerBoundsTests {
    static let guardByte: UInt8 = 0xA5
    static let guardCount = 4096

    /// Sources of every layout the readers convert, into 8-bit 4:2:0 at the same size, as the Y4M reader and
    /// the camera converter ask for it.
    @Test("a conversion to 4:2:0 writes nothing past the planes, at any size", arguments: [
        AV_PIX_FMT_YUV422P, AV_PIX_FMT_YUV444P, AV_PIX_FMT_GRAY8, AV_PIX_FMT_YUV420P10LE, AV_PIX_FMT_YUYV422, AV_PIX_FMT_YUV420P,
    ])
    func toI420(format: AVPixelFormat) throws {
        for (width, height) in [(4, 4), (2, 2), (5, 3), (18, 10), (34, 6), (100, 20), (854, 8)] {
            let source = Self.picture(format: format, width: width, height: height)
            let luma = width * height, chromaWidth = (width + 1) / 2, chroma = chromaWidth * ((height + 1) / 2)
            let tight = luma + 2 * chroma
            var output = [UInt8](repeating: Self.guardByte, count: tight + Self.guardCount)
            try source.withPicture { picture in
                try output.withUnsafeMutableBufferPointer { out in
                    let base = out.baseAddress!
                    try FrameScaler().scale(
                        picture, into: [base, base + luma, base + luma + chroma],
                        strides: [Int32(width), Int32(chromaWidth), Int32(chromaWidth)],
                        format: AV_PIX_FMT_YUV420P, width: width, height: height, flags: SWS_BICUBIC)
                }
            }
            let spill = output[tight...].firstIndex { $0 != Self.guardByte }
            #expect(spill == nil, "\(format.rawValue) \(width)x\(height): wrote \(spill.map { $0 - tight + 1 } ?? 0)+ bytes past the planes")
            // The same conversion into padded planes: each plane's rows must match it (no row spilled into another).
            // At an odd size libswscale leaves the last chroma row of some conversions unwritten (whatever the
            // planes held stays): only even sizes have one right answer.
            guard width % 2 == 0, height % 2 == 0 else { continue }
            let reference = try source.withPicture { try Self.padded($0, width: width, height: height) }
            #expect(Array(output[0..<tight]) == reference, "\(format.rawValue) \(width)x\(height): the planes differ from a padded conversion")
        }
    }

    /// The terminal preview: a small packed RGB picture of any decoded size.
    @Test("a preview conversion to RGB writes nothing past its rows")
    func toRGB() throws {
        for (width, height) in [(1, 1), (3, 2), (13, 7), (40, 12), (79, 22)] {
            let source = Self.picture(format: AV_PIX_FMT_YUV420P, width: 64, height: 36)
            var output = [UInt8](repeating: Self.guardByte, count: width * height * 3 + Self.guardCount)
            try source.withPicture { picture in
                try output.withUnsafeMutableBufferPointer { out in
                    try FrameScaler().scale(picture, into: [out.baseAddress], strides: [Int32(width * 3)],
                                            format: AV_PIX_FMT_RGB24, width: width, height: height, flags: SWS_AREA)
                }
            }
            #expect(output[(width * height * 3)...].allSatisfy { $0 == Self.guardByte }, "RGB \(width)x\(height) spilled")
        }
    }

    /// A source picture in its own tightly packed planes, every byte varied.
    struct Source {
        var format: AVPixelFormat
        var width: Int
        var height: Int
        var planes: [[UInt8]]
        var strides: [Int]

        func withPicture<Result>(_ body: (FrameScaler.Picture) throws -> Result) rethrows -> Result {
            // Each plane with room after it: the source side is read, not written, and reads may run ahead too.
            let padded = planes.map { $0 + [UInt8](repeating: 0, count: 256) }
            return try withPointers(padded[...]) { pointers in
                try body(FrameScaler.Picture(format: format, width: width, height: height, planes: pointers, strides: strides.map { Int32($0) }))
            }
        }

        private func withPointers<Result>(_ rest: ArraySlice<[UInt8]>, _ done: [UnsafePointer<UInt8>?] = [],
                                          _ body: ([UnsafePointer<UInt8>?]) throws -> Result) rethrows -> Result {
            guard let first = rest.first else { return try body(done) }
            return try first.withUnsafeBufferPointer { try withPointers(rest.dropFirst(), done + [$0.baseAddress], body) }
        }
    }

    static func picture(format: AVPixelFormat, width: Int, height: Int) -> Source {
        let descriptor = av_pix_fmt_desc_get(format)!.pointee
        let bytes = Int(descriptor.comp.0.step)
        let chromaWidth = (width + (1 << Int(descriptor.log2_chroma_w)) - 1) >> Int(descriptor.log2_chroma_w)
        let chromaHeight = (height + (1 << Int(descriptor.log2_chroma_h)) - 1) >> Int(descriptor.log2_chroma_h)
        let planeCount = Int(av_pix_fmt_count_planes(format))
        var planes: [[UInt8]] = [], strides: [Int] = []
        for plane in 0..<planeCount {
            let stride = plane == 0 ? (format == AV_PIX_FMT_YUYV422 ? width * 2 : width * bytes) : chromaWidth * bytes
            let rows = plane == 0 ? height : chromaHeight
            planes.append((0..<(stride * rows)).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ plane &* 11) & (bytes == 2 && $0 % 2 == 1 ? 0x03 : 0xFF) })
            strides.append(stride)
        }
        return Source(format: format, width: width, height: height, planes: planes, strides: strides)
    }

    /// The conversion through libswscale into planes allocated as libavutil allocates them (aligned, padded),
    /// copied out tightly: what the planes must hold.
    static func padded(_ picture: FrameScaler.Picture, width: Int, height: Int) throws -> [UInt8] {
        let frame = av_frame_alloc()!
        defer { var frame: UnsafeMutablePointer<AVFrame>? = frame; av_frame_free(&frame) }
        frame.pointee.format = AV_PIX_FMT_YUV420P.rawValue
        frame.pointee.width = Int32(width)
        frame.pointee.height = Int32(height)
        #expect(av_frame_get_buffer(frame, 64) == 0)
        let context = sws_getContext(Int32(picture.width), Int32(picture.height), picture.format, Int32(width), Int32(height),
                                     AV_PIX_FMT_YUV420P, SWS_BICUBIC, nil, nil, nil)
        defer { sws_freeContext(context) }
        var sources = picture.planes + [UnsafePointer<UInt8>?](repeating: nil, count: 4 - picture.planes.count)
        var sourceStrides = picture.strides + [Int32](repeating: 0, count: 4 - picture.strides.count)
        var destinations = [frame.pointee.data.0, frame.pointee.data.1, frame.pointee.data.2, nil]
        var strides = [frame.pointee.linesize.0, frame.pointee.linesize.1, frame.pointee.linesize.2, 0]
        #expect(sws_scale(context, &sources, &sourceStrides, 0, Int32(picture.height), &destinations, &strides) == Int32(height))
        let chromaWidth = (width + 1) / 2, chromaHeight = (height + 1) / 2
        var out: [UInt8] = []
        for (plane, (rowBytes, rows)) in [(width, height), (chromaWidth, chromaHeight), (chromaWidth, chromaHeight)].enumerated() {
            for row in 0..<rows {
                let start = destinations[plane]! + row * Int(strides[plane])
                out.append(contentsOf: UnsafeBufferPointer(start: start, count: rowBytes))
            }
        }
        return out
    }
}
