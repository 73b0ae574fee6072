/// One captured picture in planar YUV 4:2:0 (I420), the format every source delivers and x264 encodes.
///
/// Why one format between stages: converting once at the source (YUYV, MJPEG → I420) keeps the encoder,
/// the preview scaler and the tests independent of what the camera happened to grant.
public struct VideoFrame: Sendable, Equatable {
    public var width: Int
    public var height: Int
    /// Where the bytes live: an array of the frame's own, or a picture mapped from a clip (`MappedPicture`).
    private var storage: Storage
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

    /// A black picture (Y 16, U/V 128: video range), with the scaler's padding after it (``paddedBytes(count:fill:)``).
    public init(width: Int, height: Int, captureNanoseconds: UInt64 = 0, sequenceNumber: Int = 0) {
        let luma = width * height
        let count = VideoFrame.byteCount(width: width, height: height)
        let planes = VideoFrame.paddedBytes(count: count) { bytes in
            UnsafeMutableBufferPointer(rebasing: bytes[0..<luma]).initialize(repeating: 16)
            UnsafeMutableBufferPointer(rebasing: bytes[luma..<count]).initialize(repeating: 128)
        }
        self.init(width: width, height: height, storage: .owned(planes), captureNanoseconds: captureNanoseconds, sequenceNumber: sequenceNumber)
    }

    public init(width: Int, height: Int, planes: [UInt8], captureNanoseconds: UInt64, sequenceNumber: Int) {
        precondition(planes.count == VideoFrame.byteCount(width: width, height: height), "I420 size mismatch")
        self.init(width: width, height: height, storage: .owned(planes), captureNanoseconds: captureNanoseconds, sequenceNumber: sequenceNumber)
    }

    /// A picture whose bytes stay in a mapped clip: nothing is copied until someone asks for `planes`.
    init(width: Int, height: Int, mapped: MappedPicture, captureNanoseconds: UInt64, sequenceNumber: Int) {
        precondition(mapped.count == VideoFrame.byteCount(width: width, height: height), "I420 size mismatch")
        self.init(width: width, height: height, storage: .mapped(mapped), captureNanoseconds: captureNanoseconds, sequenceNumber: sequenceNumber)
    }

    private init(width: Int, height: Int, storage: Storage, captureNanoseconds: UInt64, sequenceNumber: Int) {
        self.width = width
        self.height = height
        self.storage = storage
        self.captureNanoseconds = captureNanoseconds
        self.sequenceNumber = sequenceNumber
    }

    /// Y plane (`width × height`), then U and V (`chromaWidth × chromaHeight` each), tightly packed.
    ///
    /// A mapped picture is copied into an array of its own when read here, and for good when written; the
    /// paths that run for every frame (the encoder, the preview's scaler) read `withUnsafePictureBytes` instead.
    public var planes: [UInt8] {
        get {
            switch storage {
            case .owned(let planes): planes
            case .mapped(let picture): Array(picture.bytes)
            }
        }
        _modify {
            var planes: [UInt8]
            switch storage {
            case .owned(let owned): planes = owned
            case .mapped(let picture): planes = Array(picture.bytes)
            }
            // Moved out, so the array stays uniquely referenced and is written in place.
            storage = .owned([])
            defer { storage = .owned(planes) }
            yield &planes
        }
        set { storage = .owned(newValue) }
    }

    /// An array of `count` bytes, initialised by `fill`, with `FrameScaler.sourcePadding` bytes of capacity after
    /// them, so the scaler (libswscale reads up to 32 bytes past a row's end at odd widths) converts the picture
    /// where it is instead of from a padded copy.
    static func paddedBytes(count: Int, fill: (UnsafeMutableBufferPointer<UInt8>) -> Void) -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: count + FrameScaler.sourcePadding) { buffer, initialized in
            let bytes = UnsafeMutableBufferPointer(rebasing: buffer[0..<count])
            fill(bytes)
            initialized = count
        }
    }

    /// How many bytes after the picture's last one are the frame's to read: an array's spare capacity, or the
    /// rest of a mapping's last page.
    var readableBytesAfterPicture: Int {
        switch storage {
        case .owned(let planes): planes.capacity - planes.count
        case .mapped(let picture): picture.readableBytesAfter
        }
    }

    /// Calls `body` with the picture's bytes where they are, copying nothing.
    public func withUnsafePictureBytes<Result>(_ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows -> Result {
        switch storage {
        case .owned(let planes): try planes.withUnsafeBufferPointer(body)
        case .mapped(let picture): try withExtendedLifetime(picture) { try body(picture.bytes) }
        }
    }

    /// The mapped picture behind this frame, if any (the encoder lends it to x264 and checks `damaged`).
    var mappedPicture: MappedPicture? {
        if case .mapped(let picture) = storage { picture } else { nil }
    }

    /// Frames are equal when their pictures' bytes are, wherever those live.
    public static func == (lhs: VideoFrame, rhs: VideoFrame) -> Bool {
        guard lhs.width == rhs.width, lhs.height == rhs.height, lhs.captureNanoseconds == rhs.captureNanoseconds,
              lhs.sequenceNumber == rhs.sequenceNumber else { return false }
        return lhs.withUnsafePictureBytes { left in rhs.withUnsafePictureBytes { right in left.elementsEqual(right) } }
    }

    private enum Storage: Sendable {
        case owned([UInt8])
        case mapped(MappedPicture)
    }
}
