import CV4L2

/// What `VIDIOC_DQBUF` said about a filled buffer, checked against the buffers OnAir mapped before a byte of
/// it is read. A pure value, so the checks are tested with hostile numbers although tests have no camera.
///
/// The driver writes every field, and a broken one (or a loopback device another process feeds) may write
/// anything. An index past the mapped buffers indexed out of the array (a trap); a `bytesused` past the
/// mapping's length would read past it (the V4L2 API has `bytesused` ≤ `length` for a single-planar mmap
/// buffer, whose data starts at the mapping's start: no other offset is read). Both are a driver not keeping
/// the API: the camera is refused, and `ResilientVideoSource` shows its substitute and reopens it. A buffer the
/// driver flagged `V4L2_BUF_FLAG_ERROR` (its data "might have been corrupted"; streaming goes on) or one that
/// holds no bytes is a dropped frame: it is given back and the next one read.
/// Spec: https://www.kernel.org/doc/html/latest/userspace-api/media/v4l/buffer.html
struct V4L2DequeuedBuffer: Sendable, Equatable {
    /// Which mapped buffer the driver filled (`v4l2_buffer.index`).
    var index: UInt32
    /// How many bytes of it hold the frame (`v4l2_buffer.bytesused`).
    var bytesUsed: UInt32
    /// `v4l2_buffer.flags`.
    var flags: UInt32

    /// What to do with the buffer once it passed the checks.
    enum Verdict: Sendable, Equatable {
        /// Read `byteCount` bytes from the start of mapped buffer `index`.
        case frame(index: Int, byteCount: Int)
        /// Give the buffer back and read the next: a dropped frame.
        case skip(Skip)
    }

    /// Why a buffer is a dropped frame.
    enum Skip: Sendable, Equatable {
        /// The driver set `V4L2_BUF_FLAG_ERROR`.
        case damaged
        /// `bytesused` is 0.
        case empty
    }

    /// `V4L2_BUF_FLAG_ERROR`: the data may be corrupted, the buffer reused as usual.
    static let errorFlag = UInt32(V4L2_BUF_FLAG_ERROR)

    init(index: UInt32, bytesUsed: UInt32, flags: UInt32) {
        self.index = index
        self.bytesUsed = bytesUsed
        self.flags = flags
    }

    init(_ buffer: v4l2_buffer) {
        self.init(index: buffer.index, bytesUsed: buffer.bytesused, flags: buffer.flags)
    }

    /// The verdict against the lengths of the buffers mapped from `device` (index i is buffer i's length);
    /// throws the one-line refusal the operator sees when the driver broke the API.
    func verdict(mappedLengths: [Int], device: String) throws(MediaError) -> Verdict {
        guard Int(index) < mappedLengths.count else {
            throw .notACaptureDevice(path: device, reason: "the driver returned buffer \(index), but only \(mappedLengths.count) are mapped")
        }
        let length = mappedLengths[Int(index)]
        if flags & Self.errorFlag != 0 { return .skip(.damaged) }
        guard Int(bytesUsed) <= length else {
            throw .notACaptureDevice(path: device, reason: "the driver says buffer \(index) holds \(bytesUsed) bytes, more than its \(length)-byte mapping")
        }
        guard bytesUsed > 0 else { return .skip(.empty) }
        return .frame(index: Int(index), byteCount: Int(bytesUsed))
    }
}
