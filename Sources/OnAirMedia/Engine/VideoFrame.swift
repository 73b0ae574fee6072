/// One captured picture in planar YUV 4:2:0 (I420), the format every source delivers and x264 encodes.
///
/// Why one format between stages: converting once at the source (YUYV, MJPEG → I420) keeps the encoder,
/// the preview scaler and the tests independent of what the camera happened to grant.
public struct VideoFrame: Sendable, Equatable {
    public var width: Int
    public var height: Int
    /// Y plane (`width × height`), then U and V (`chromaWidth × chromaHeight` each), tightly packed.
    public var planes: [UInt8]
    /// Monotonic capture time (`MonotonicClock`), in nanoseconds.
    public var captureNanoseconds: UInt64
    /// The source's frame counter, from 0; gaps mean the source skipped frames.
    public var sequenceNumber: Int

    public var chromaWidth: Int { (width + 1) / 2 }
    public var chromaHeight: Int { (height + 1) / 2 }
    public var lumaCount: Int { width * height }
    public var chromaCount: Int { chromaWidth * chromaHeight }

    /// The byte count of an I420 picture of this size.
    public static func byteCount(width: Int, height: Int) -> Int {
        width * height + 2 * ((width + 1) / 2) * ((height + 1) / 2)
    }

    /// A black picture (Y 16, U/V 128: video range).
    public init(width: Int, height: Int, captureNanoseconds: UInt64 = 0, sequenceNumber: Int = 0) {
        self.width = width
        self.height = height
        self.captureNanoseconds = captureNanoseconds
        self.sequenceNumber = sequenceNumber
        let luma = width * height
        var planes = [UInt8](repeating: 128, count: VideoFrame.byteCount(width: width, height: height))
        planes.withUnsafeMutableBufferPointer { UnsafeMutableBufferPointer(rebasing: $0[0..<luma]).update(repeating: 16) }
        self.planes = planes
    }

    public init(width: Int, height: Int, planes: [UInt8], captureNanoseconds: UInt64, sequenceNumber: Int) {
        precondition(planes.count == VideoFrame.byteCount(width: width, height: height), "I420 size mismatch")
        self.width = width
        self.height = height
        self.planes = planes
        self.captureNanoseconds = captureNanoseconds
        self.sequenceNumber = sequenceNumber
    }
}
