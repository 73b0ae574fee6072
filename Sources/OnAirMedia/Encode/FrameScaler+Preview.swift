import CFFmpeg
import OnAirCore

extension FrameScaler {
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
                strides: [Int32(frame.width), Int32(frame.chromaWidth), Int32(frame.chromaWidth)],
                readableBytesAfter: frame.readableBytesAfterPicture)
            try rgb.withUnsafeMutableBufferPointer { output throws in
                try scale(
                    source, into: [output.baseAddress], strides: [Int32(width * 3)], format: AV_PIX_FMT_RGB24,
                    width: width, height: height, flags: SWS_AREA)
            }
        }
        return PreviewImage(width: width, height: height, rgb: rgb)
    }
}
