import CFFmpeg
import OnAirCore

/// libswscale for size and pixel-format conversion, owned by the one thread that uses it.
///
/// `sws_getCachedContext` re-creates the context only when the geometry changes (a camera renegotiating),
/// so per-frame cost is the conversion alone.
final class FrameScaler {
    private var context: OpaquePointer?

    deinit { sws_freeContext(context) }

    /// One picture: up to three plane pointers and their strides.
    struct Picture {
        var format: AVPixelFormat
        var width: Int
        var height: Int
        var planes: [UnsafePointer<UInt8>?]
        var strides: [Int32]
    }

    /// Converts `source` into `destination` planes; `flags` picks speed (bilinear) or quality (area, for previews).
    func scale(
        _ source: Picture, into destination: [UnsafeMutablePointer<UInt8>?], strides destinationStrides: [Int32],
        format destinationFormat: AVPixelFormat, width: Int, height: Int, flags: Int32 = SWS_BILINEAR
    ) throws {
        context = sws_getCachedContext(
            context, Int32(source.width), Int32(source.height), source.format,
            Int32(width), Int32(height), destinationFormat, flags, nil, nil, nil)
        guard let context else {
            throw MediaError.formatUnsupported("libswscale cannot convert \(source.width)x\(source.height) to \(width)x\(height)")
        }
        var sourcePlanes = source.planes + [UnsafePointer<UInt8>?](repeating: nil, count: 4 - source.planes.count)
        var sourceStrides = source.strides + [Int32](repeating: 0, count: 4 - source.strides.count)
        var destinationPlanes = destination + [UnsafeMutablePointer<UInt8>?](repeating: nil, count: 4 - destination.count)
        var strides = destinationStrides + [Int32](repeating: 0, count: 4 - destinationStrides.count)
        let rows = sws_scale(context, &sourcePlanes, &sourceStrides, 0, Int32(source.height), &destinationPlanes, &strides)
        try check(rows, "sws_scale")
    }

    /// A small packed-RGB picture of an I420 frame, for the terminal preview.
    func preview(of frame: VideoFrame, width: Int, height: Int) throws -> PreviewImage {
        var rgb = [UInt8](repeating: 0, count: width * height * 3)
        try frame.withUnsafePictureBytes { planes throws in
            let base = planes.baseAddress!
            // Without the frame marker's row (it changes every frame; see PacketDecoder), when there is one.
            let hasMarker = FrameMarker.read(luma: UnsafeBufferPointer(rebasing: planes[0..<frame.lumaCount]),
                                             stride: frame.width, width: frame.width, height: frame.height) != nil
            let skip = hasMarker ? FrameMarker.bandHeight(pictureHeight: frame.height) : 0
            let source = Picture(
                format: AV_PIX_FMT_YUV420P, width: frame.width, height: frame.height - skip,
                planes: [
                    base + skip * frame.width, base + frame.lumaCount + skip / 2 * frame.chromaWidth,
                    base + frame.lumaCount + frame.chromaCount + skip / 2 * frame.chromaWidth,
                ],
                strides: [Int32(frame.width), Int32(frame.chromaWidth), Int32(frame.chromaWidth)])
            try rgb.withUnsafeMutableBufferPointer { output throws in
                try scale(
                    source, into: [output.baseAddress], strides: [Int32(width * 3)], format: AV_PIX_FMT_RGB24,
                    width: width, height: height, flags: SWS_AREA)
            }
        }
        return PreviewImage(width: width, height: height, rgb: rgb)
    }
}
