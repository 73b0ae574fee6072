import CFFmpeg

/// A Y4M clip's `C` tag: where its planes lie in a frame, and how a frame becomes the encoder's 8-bit 4:2:0.
///
/// 4:2:0 8-bit is the encoder's own format and goes to x264 as the file holds it. The others — 4:2:2 and
/// 4:4:4 from intermediate codecs, 10- and 12-bit, greyscale, 4:4:4 with alpha, as `ffmpeg -i IN OUT.y4m`
/// writes them by default — are converted by libswscale as a camera's frames are, so a clip needs no
/// `-pix_fmt yuv420p` first. Tags and layouts: libavformat's yuv4mpegdec.c (samples of more than 8 bits
/// are 16-bit little-endian; planes Y, U, V, then A).
struct Y4MColourSpace: Equatable, Sendable {
    /// The tag as the header writes it after `C` (`420jpeg`, `422p10`, …).
    let tag: String
    /// The picture's format for libswscale; nil for 8-bit 4:2:0, which is used as it is.
    let pixelFormat: AVPixelFormat?
    let bytesPerSample: Int
    /// log2 of the chroma subsampling across and down (1 and 1 for 4:2:0).
    let chromaShift: (x: Int, y: Int)
    /// 1 (grey), 3 (YUV) or 4 (YUV and alpha).
    let planeCount: Int

    static func == (lhs: Y4MColourSpace, rhs: Y4MColourSpace) -> Bool { lhs.tag == rhs.tag }

    /// The tags OnAir reads, for the message that names them.
    static let tags = ["420", "420jpeg", "420paldv", "420mpeg2", "422", "444", "444alpha", "mono",
                       "420p10", "422p10", "444p10", "420p12", "422p12", "444p12", "mono16"]

    init?(tag: String) {
        self.tag = tag
        switch tag {
        case "420", "420jpeg", "420paldv", "420mpeg2": (pixelFormat, bytesPerSample, chromaShift, planeCount) = (nil, 1, (1, 1), 3)
        case "422": (pixelFormat, bytesPerSample, chromaShift, planeCount) = (AV_PIX_FMT_YUV422P, 1, (1, 0), 3)
        case "444": (pixelFormat, bytesPerSample, chromaShift, planeCount) = (AV_PIX_FMT_YUV444P, 1, (0, 0), 3)
        case "444alpha": (pixelFormat, bytesPerSample, chromaShift, planeCount) = (AV_PIX_FMT_YUVA444P, 1, (0, 0), 4)
        case "mono": (pixelFormat, bytesPerSample, chromaShift, planeCount) = (AV_PIX_FMT_GRAY8, 1, (0, 0), 1)
        case "mono16": (pixelFormat, bytesPerSample, chromaShift, planeCount) = (AV_PIX_FMT_GRAY16LE, 2, (0, 0), 1)
        case "420p10": (pixelFormat, bytesPerSample, chromaShift, planeCount) = (AV_PIX_FMT_YUV420P10LE, 2, (1, 1), 3)
        case "422p10": (pixelFormat, bytesPerSample, chromaShift, planeCount) = (AV_PIX_FMT_YUV422P10LE, 2, (1, 0), 3)
        case "444p10": (pixelFormat, bytesPerSample, chromaShift, planeCount) = (AV_PIX_FMT_YUV444P10LE, 2, (0, 0), 3)
        case "420p12": (pixelFormat, bytesPerSample, chromaShift, planeCount) = (AV_PIX_FMT_YUV420P12LE, 2, (1, 1), 3)
        case "422p12": (pixelFormat, bytesPerSample, chromaShift, planeCount) = (AV_PIX_FMT_YUV422P12LE, 2, (1, 0), 3)
        case "444p12": (pixelFormat, bytesPerSample, chromaShift, planeCount) = (AV_PIX_FMT_YUV444P12LE, 2, (0, 0), 3)
        default: return nil
        }
    }

    /// Whether frames need a conversion (everything but 8-bit 4:2:0).
    var converts: Bool { pixelFormat != nil }

    /// Each plane's offset in a frame and its bytes per row, Y first. Sides are at most `Y4MFileSource.maximumSide`,
    /// so no product here comes near `Int.max`.
    func planes(width: Int, height: Int) -> [(offset: Int, stride: Int)] {
        let chromaWidth = (width + (1 << chromaShift.x) - 1) >> chromaShift.x
        let chromaHeight = (height + (1 << chromaShift.y) - 1) >> chromaShift.y
        let luma = (offset: 0, stride: width * bytesPerSample)
        guard planeCount > 1 else { return [luma] }
        let lumaBytes = width * height * bytesPerSample, chromaBytes = chromaWidth * chromaHeight * bytesPerSample
        var planes = [luma, (lumaBytes, chromaWidth * bytesPerSample), (lumaBytes + chromaBytes, chromaWidth * bytesPerSample)]
        if planeCount == 4 { planes.append((lumaBytes + 2 * chromaBytes, width * bytesPerSample)) }
        return planes
    }

    /// Bytes of one frame (without its `FRAME` line).
    func frameBytes(width: Int, height: Int) -> Int {
        let chromaWidth = (width + (1 << chromaShift.x) - 1) >> chromaShift.x
        let chromaHeight = (height + (1 << chromaShift.y) - 1) >> chromaShift.y
        let chroma = planeCount >= 3 ? 2 * chromaWidth * chromaHeight : 0
        let alpha = planeCount == 4 ? width * height : 0
        return (width * height + chroma + alpha) * bytesPerSample
    }
}
