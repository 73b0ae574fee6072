import CFFmpeg
import CV4L2

/// Turns a camera's driver buffers (YUYV, NV12, YU12 with any line stride, or MJPEG) into I420 frames.
///
/// Separate from `V4L2Camera` so the conversions — the part of camera capture most likely to be subtly
/// wrong (strides, chroma siting, JPEG's full-range 4:2:2) — are tested with real buffers on machines
/// without a camera. Owned by the capture thread, like the camera.
final class CameraFrameConverter {
    let device: String
    let pixelFormat: UInt32
    let width: Int
    let height: Int
    let bytesPerLine: Int
    private let scaler = FrameScaler()
    private let mjpeg: DecoderContext?

    /// The largest side a driver may grant: twice the largest size OnAir asks for (4096x2304), so no honest
    /// camera is refused and no frame's byte count comes near overflowing.
    static let maximumSide = 8192

    /// Refuses the geometry a broken driver (or a loopback device another process feeds) may report: a side of
    /// 0 or past ``maximumSide``, or lines shorter than a row of the format — libswscale reads a whole row from
    /// each line's start, so the last would be read past the buffer.
    init(device: String, pixelFormat: UInt32, width: Int, height: Int, bytesPerLine: Int) throws {
        guard (1...Self.maximumSide).contains(width), (1...Self.maximumSide).contains(height) else {
            throw MediaError.notACaptureDevice(path: device, reason: "the driver granted \(width)x\(height); OnAir reads 1x1 to \(Self.maximumSide)x\(Self.maximumSide)")
        }
        if pixelFormat != onair_V4L2_PIX_FMT_MJPEG() {
            let chromaWidth = (width + 1) / 2
            let rowBytes = pixelFormat == onair_V4L2_PIX_FMT_YUYV() ? 4 * chromaWidth : 2 * chromaWidth
            guard (rowBytes...(16 * Self.maximumSide)).contains(bytesPerLine) else {
                throw MediaError.notACaptureDevice(
                    path: device, reason: "the driver reports \(bytesPerLine)-byte lines for \(width)-pixel rows (\(rowBytes) to \(16 * Self.maximumSide) bytes)")
            }
        }
        self.device = device
        self.pixelFormat = pixelFormat
        self.width = width
        self.height = height
        self.bytesPerLine = bytesPerLine
        // A JPEG's header names its own size: up to four times the granted area (a camera sends the size it
        // granted), not the hundreds of megabytes a hostile header could make libavcodec allocate per frame.
        let maximumPixels = Int64(4 * width * height)
        mjpeg = pixelFormat == onair_V4L2_PIX_FMT_MJPEG()
            ? try DecoderContext(AV_CODEC_ID_MJPEG, name: "mjpeg", extradata: []) { $0.pointee.max_pixels = maximumPixels }
            : nil
    }

    /// One driver buffer (`bytesused` bytes) as an I420 frame at the granted size. `readableLength`: how many
    /// bytes from the buffer's start may be read (its mapping, to the end of its last page), at least `bytes.count`.
    func convert(_ bytes: UnsafeRawBufferPointer, readableLength: Int? = nil, capture: UInt64, sequence: Int) throws -> VideoFrame {
        var frame = VideoFrame(width: width, height: height, captureNanoseconds: capture, sequenceNumber: sequence)
        let base = bytes.baseAddress!.assumingMemoryBound(to: UInt8.self)
        if pixelFormat == onair_V4L2_PIX_FMT_MJPEG() {
            guard let mjpeg else { return frame }
            try mjpeg.decode(Array(bytes), pts: Int64(sequence), name: "mjpeg") { decoded in
                let source = FrameScaler.Picture(
                    format: AVPixelFormat(decoded.pointee.format), width: Int(decoded.pointee.width), height: Int(decoded.pointee.height),
                    planes: [UnsafePointer(decoded.pointee.data.0), UnsafePointer(decoded.pointee.data.1), UnsafePointer(decoded.pointee.data.2)],
                    strides: [decoded.pointee.linesize.0, decoded.pointee.linesize.1, decoded.pointee.linesize.2],
                    readableBytesAfter: FrameScaler.sourcePadding)   // a libavcodec frame: padded
                try scale(source, into: &frame)
            }
            return frame
        }
        let stride = bytesPerLine
        var source: FrameScaler.Picture
        switch pixelFormat {
        case onair_V4L2_PIX_FMT_YUYV():
            source = .init(format: AV_PIX_FMT_YUYV422, width: width, height: height, planes: [UnsafePointer(base)], strides: [Int32(stride)])
        case onair_V4L2_PIX_FMT_NV12():
            source = .init(
                format: AV_PIX_FMT_NV12, width: width, height: height,
                planes: [UnsafePointer(base), UnsafePointer(base + stride * height)], strides: [Int32(stride), Int32(stride)])
        default: // YU12 (I420)
            let chromaStride = stride / 2
            source = .init(
                format: AV_PIX_FMT_YUV420P, width: width, height: height,
                planes: [UnsafePointer(base), UnsafePointer(base + stride * height),
                         UnsafePointer(base + stride * height + chromaStride * ((height + 1) / 2))],
                strides: [Int32(stride), Int32(chromaStride), Int32(chromaStride)])
        }
        let needed: Int
        switch pixelFormat {
        case onair_V4L2_PIX_FMT_YUYV(): needed = stride * height
        case onair_V4L2_PIX_FMT_NV12(): needed = stride * height + stride * ((height + 1) / 2)
        default: needed = stride * height + 2 * (stride / 2) * ((height + 1) / 2)
        }
        guard bytes.count >= needed else {
            throw MediaError.notACaptureDevice(path: device, reason: "the driver returned a short frame (\(bytes.count) of \(needed) bytes)")
        }
        source.readableBytesAfter = max(readableLength ?? bytes.count, bytes.count) - needed
        try scale(source, into: &frame)
        return frame
    }

    private func scale(_ source: FrameScaler.Picture, into frame: inout VideoFrame) throws {
        let width = frame.width, height = frame.height
        let luma = frame.lumaCount, chroma = frame.chromaCount, chromaWidth = frame.chromaWidth
        try frame.planes.withUnsafeMutableBufferPointer { planes in
            let base = planes.baseAddress!
            try scaler.scale(
                source, into: [base, base + luma, base + luma + chroma],
                strides: [Int32(width), Int32(chromaWidth), Int32(chromaWidth)], format: AV_PIX_FMT_YUV420P, width: width, height: height)
        }
    }
}
