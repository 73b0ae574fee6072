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
///
/// It also *reads* past a source row's end (up to 32 bytes measured, at tiny or odd widths: 2x2, 5x3, 6x4 4:2:0,
/// 18x4 and 646x8 YUYV, 6x4 and 34x6 NV12; not at 1280x720 or 854x480). Past the last row of a tight picture that
/// ends a page with nothing mapped after it — a camera buffer, a clip frame's mapping — that read faults
/// (`FrameScalerSourceBoundsTests`). So a source says how many bytes after its last one are readable, and with
/// fewer than ``sourcePadding`` it is read from a padded copy.
final class FrameScaler {
    private var context: OpaquePointer?
    /// Padded planes for the destination's format and size, kept while they stay the same.
    private var padded: UnsafeMutablePointer<AVFrame>?
    /// Padded planes for a source without readable bytes after it, kept while its format and size stay the same.
    private var paddedSource: UnsafeMutablePointer<AVFrame>?
    /// How many sources were read from a padded copy (tests check that a source with room after it is not).
    private(set) var sourceCopies = 0

    /// The bytes after a source's last one that libswscale may read: libavcodec's input padding, twice the
    /// largest over-read measured.
    static let sourcePadding = Int(AV_INPUT_BUFFER_PADDING_SIZE)

    deinit {
        sws_freeContext(context)
        av_frame_free(&padded)
        av_frame_free(&paddedSource)
    }

    /// One picture: up to three plane pointers and their strides.
    struct Picture {
        var format: AVPixelFormat
        var width: Int
        var height: Int
        var planes: [UnsafePointer<UInt8>?]
        var strides: [Int32]
        /// How many bytes after the picture's last byte the caller may let libswscale read (its buffer's spare
        /// capacity, the rest of its mapping's last page, a libavcodec frame's padding); 0 when unknown.
        var readableBytesAfter = 0
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
        if source.readableBytesAfter < Self.sourcePadding {
            let copy = try Self.frame(&paddedSource, format: source.format, width: source.width, height: source.height)
            let targets = [copy.pointee.data.0, copy.pointee.data.1, copy.pointee.data.2, copy.pointee.data.3]
            let targetStrides = [copy.pointee.linesize.0, copy.pointee.linesize.1, copy.pointee.linesize.2, copy.pointee.linesize.3]
            try Self.copyRows(of: source, planes: sourcePlanes, strides: sourceStrides, into: targets, strides: targetStrides)
            sourcePlanes = targets.map { UnsafePointer($0) }
            sourceStrides = targetStrides
            sourceCopies += 1
        }
        if destinationIsPadded {
            var planes = Self.four(destination)
            var strides = Self.four(destinationStrides)
            try check(sws_scale(context, &sourcePlanes, &sourceStrides, 0, Int32(source.height), &planes, &strides), "sws_scale")
            return
        }
        let frame = try Self.frame(&padded, format: destinationFormat, width: width, height: height)
        var planes = [frame.pointee.data.0, frame.pointee.data.1, frame.pointee.data.2, frame.pointee.data.3]
        var strides = [frame.pointee.linesize.0, frame.pointee.linesize.1, frame.pointee.linesize.2, frame.pointee.linesize.3]
        try check(sws_scale(context, &sourcePlanes, &sourceStrides, 0, Int32(source.height), &planes, &strides), "sws_scale")
        var targets = Self.four(destination)
        var targetStrides = Self.four(destinationStrides)
        var copied = planes.map { UnsafePointer($0) }
        av_image_copy(&targets, &targetStrides, &copied, strides, destinationFormat, Int32(width), Int32(height))
    }

    /// Padded planes (`av_frame_get_buffer`) for `format` at `width`x`height` in `kept`, allocated again only when
    /// those change.
    private static func frame(
        _ kept: inout UnsafeMutablePointer<AVFrame>?, format: AVPixelFormat, width: Int, height: Int
    ) throws -> UnsafeMutablePointer<AVFrame> {
        if let kept, kept.pointee.format == format.rawValue, kept.pointee.width == Int32(width), kept.pointee.height == Int32(height) {
            return kept
        }
        av_frame_free(&kept)
        guard let frame = av_frame_alloc() else { throw MediaError.formatUnsupported("av_frame_alloc failed (out of memory)") }
        var made: UnsafeMutablePointer<AVFrame>? = frame
        frame.pointee.format = format.rawValue
        frame.pointee.width = Int32(width)
        frame.pointee.height = Int32(height)
        let allocated = av_frame_get_buffer(frame, 0)
        guard allocated >= 0 else {
            // Not kept: a frame without planes must not be found as this size's next time.
            av_frame_free(&made)
            try check(allocated, "av_frame_get_buffer")
            throw MediaError.formatUnsupported("av_frame_get_buffer failed")
        }
        kept = frame
        return frame
    }

    /// Each plane's rows of `source` into `targets`: a row's bytes for the format and width, and never more than
    /// its stride (a row narrower than its format says, as a driver may report, is copied as far as it goes;
    /// `av_image_copy` would abort on it).
    private static func copyRows(
        of source: Picture, planes: [UnsafePointer<UInt8>?], strides: [Int32],
        into targets: [UnsafeMutablePointer<UInt8>?], strides targetStrides: [Int32]
    ) throws {
        var rowBytes = [Int32](repeating: 0, count: 4)
        try check(av_image_fill_linesizes(&rowBytes, source.format, Int32(source.width)), "av_image_fill_linesizes")
        guard let descriptor = av_pix_fmt_desc_get(source.format) else {
            throw MediaError.formatUnsupported("libavutil does not describe pixel format \(source.format.rawValue)")
        }
        let chromaRows = Int32(-((-source.height) >> Int(descriptor.pointee.log2_chroma_h)))
        for plane in 0..<4 {
            guard let from = planes[plane], let to = targets[plane] else { continue }
            let bytes = min(rowBytes[plane], Int32(clamping: strides[plane].magnitude))
            av_image_copy_plane(to, targetStrides[plane], from, strides[plane], bytes, plane == 1 || plane == 2 ? chromaRows : Int32(source.height))
        }
    }

    /// libswscale's four-plane arrays: `values`, then nil (or 0) for the planes they lack.
    private static func four<Element>(_ values: [Element?]) -> [Element?] {
        values + [Element?](repeating: nil, count: max(0, 4 - values.count))
    }

    private static func four(_ values: [Int32]) -> [Int32] {
        values + [Int32](repeating: 0, count: max(0, 4 - values.count))
    }
}
