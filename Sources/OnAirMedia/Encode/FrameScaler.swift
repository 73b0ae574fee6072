import CFFmpeg

/// libswscale for size and pixel-format conversion, owned by the one thread that uses it.
///
/// `sws_getCachedContext` re-creates the context only when the geometry changes (a camera renegotiating),
/// so per-frame cost is the conversion alone.
///
/// libswscale may write past a row's end into tight planes (measured at 4x4 and 5x3: past the buffer and over
/// the next plane's first row; the larger sizes tested did not). FFmpeg's own frames are allocated aligned and
/// padded for it (`av_frame_get_buffer`); OnAir's pictures are tight arrays, and a 4x4 4:2:2 clip corrupted the
/// heap (FuzzY4MReader's first finding; `FrameScalerBoundsTests`). So unless the caller says its planes are
/// such a frame's, the conversion goes into padded planes of the scaler's own, copied out row by row.
final class FrameScaler {
    private var context: OpaquePointer?
    /// Padded planes for the destination's format and size, kept while they stay the same.
    private var padded: UnsafeMutablePointer<AVFrame>?

    deinit {
        sws_freeContext(context)
        av_frame_free(&padded)
    }

    /// One picture: up to three plane pointers and their strides.
    struct Picture {
        var format: AVPixelFormat
        var width: Int
        var height: Int
        var planes: [UnsafePointer<UInt8>?]
        var strides: [Int32]
    }

    /// Converts `source` into `destination` planes; `flags` picks speed (bilinear) or quality (area, for previews).
    /// `destinationIsPadded`: the planes are an `av_frame_get_buffer` frame's, written directly.
    func scale(
        _ source: Picture, into destination: [UnsafeMutablePointer<UInt8>?], strides destinationStrides: [Int32],
        format destinationFormat: AVPixelFormat, width: Int, height: Int, flags: Int32 = SWS_BILINEAR, destinationIsPadded: Bool = false
    ) throws {
        context = sws_getCachedContext(
            context, Int32(source.width), Int32(source.height), source.format,
            Int32(width), Int32(height), destinationFormat, flags, nil, nil, nil)
        guard let context else {
            throw MediaError.formatUnsupported("libswscale cannot convert \(source.width)x\(source.height) to \(width)x\(height)")
        }
        var sourcePlanes = Self.four(source.planes)
        var sourceStrides = Self.four(source.strides)
        if destinationIsPadded {
            var planes = Self.four(destination)
            var strides = Self.four(destinationStrides)
            try check(sws_scale(context, &sourcePlanes, &sourceStrides, 0, Int32(source.height), &planes, &strides), "sws_scale")
            return
        }
        let frame = try paddedFrame(format: destinationFormat, width: width, height: height)
        var planes = [frame.pointee.data.0, frame.pointee.data.1, frame.pointee.data.2, frame.pointee.data.3]
        var strides = [frame.pointee.linesize.0, frame.pointee.linesize.1, frame.pointee.linesize.2, frame.pointee.linesize.3]
        try check(sws_scale(context, &sourcePlanes, &sourceStrides, 0, Int32(source.height), &planes, &strides), "sws_scale")
        var targets = Self.four(destination)
        var targetStrides = Self.four(destinationStrides)
        var copied = planes.map { UnsafePointer($0) }
        av_image_copy(&targets, &targetStrides, &copied, strides, destinationFormat, Int32(width), Int32(height))
    }

    /// The scaler's padded planes for `format` at `width`x`height`, allocated again only when those change.
    private func paddedFrame(format: AVPixelFormat, width: Int, height: Int) throws -> UnsafeMutablePointer<AVFrame> {
        if let padded, padded.pointee.format == format.rawValue, padded.pointee.width == Int32(width), padded.pointee.height == Int32(height) {
            return padded
        }
        av_frame_free(&padded)
        guard let frame = av_frame_alloc() else { throw MediaError.formatUnsupported("av_frame_alloc failed (out of memory)") }
        padded = frame
        frame.pointee.format = format.rawValue
        frame.pointee.width = Int32(width)
        frame.pointee.height = Int32(height)
        try check(av_frame_get_buffer(frame, 0), "av_frame_get_buffer")
        return frame
    }

    /// libswscale's four-plane arrays: `values`, then nil (or 0) for the planes they lack.
    private static func four<Element>(_ values: [Element?]) -> [Element?] {
        values + [Element?](repeating: nil, count: max(0, 4 - values.count))
    }

    private static func four(_ values: [Int32]) -> [Int32] {
        values + [Int32](repeating: 0, count: max(0, 4 - values.count))
    }
}
