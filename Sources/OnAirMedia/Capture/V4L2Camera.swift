import CV4L2
import Glibc

/// A V4L2 camera (/dev/videoN): plain `open` + `ioctl`, size and rate negotiated, mmap streaming.
///
/// The camera grants what it can: `requested` and `granted` are both reported so the operator sees the
/// difference. Wire formats: YUV 4:2:0 (YU12/NV12) and YUYV are converted with libswscale; MJPEG is decoded
/// with libavcodec first (`CameraFrameConverter`). For pictures larger than 640×480 MJPEG is preferred when offered, because USB 2
/// cameras can only send uncompressed HD at a few frames per second.
/// Spec: https://www.kernel.org/doc/html/latest/userspace-api/media/v4l/capture.c.html
public final class V4L2Camera: VideoSource {
    public let device: String
    public let requested: VideoSourceFormat
    public let granted: VideoSourceFormat
    public private(set) var skippedFrames = 0

    private let fd: Int32
    private let pixelFormat: UInt32
    private let bytesPerLine: Int
    /// Each buffer's mapping: `length` bytes of the driver's, then the rest of their last page and one more page
    /// of zeros of OnAir's own (`readable` bytes in all), so the scaler may read past a frame that fills its pages.
    private var buffers: [(start: UnsafeMutableRawPointer, length: Int, readable: Int)] = []
    /// `buffers`' lengths, kept beside them so each dequeued buffer is checked without building an array per frame.
    private var mappedLengths: [Int] = []
    private var streaming = false
    private var converter: CameraFrameConverter?
    private var lastDriverSequence: UInt32?
    private var sequence = 0

    public init(device: String, width: Int, height: Int, framesPerSecond: Double, bufferCount: Int = 4) throws {
        self.device = device
        requested = VideoSourceFormat(width: width, height: height, framesPerSecond: framesPerSecond, pixelFormat: "any")
        fd = try V4L2Camera.openDevice(device)
        do {
            try V4L2Camera.checkCapabilities(fd, device: device)
            let offered = V4L2Camera.offeredFormats(fd)
            guard let chosen = V4L2Camera.choose(from: offered, width: width, height: height) else {
                throw MediaError.formatUnsupported(
                    "\(device) offers \(offered.map(V4L2Camera.fourCC).joined(separator: ", ")); OnAir reads YUYV, MJPEG, YU12 or NV12")
            }
            var format = v4l2_format()
            format.type = V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue
            format.fmt.pix.width = UInt32(width)
            format.fmt.pix.height = UInt32(height)
            format.fmt.pix.pixelformat = chosen
            format.fmt.pix.field = V4L2_FIELD_NONE.rawValue
            try V4L2Camera.ioctl(fd, onair_VIDIOC_S_FMT(), &format, "VIDIOC_S_FMT")
            pixelFormat = format.fmt.pix.pixelformat
            let grantedWidth = Int(format.fmt.pix.width)
            let grantedHeight = Int(format.fmt.pix.height)
            bytesPerLine = Int(format.fmt.pix.bytesperline)
            let grantedRate = V4L2Camera.negotiateRate(fd, framesPerSecond) ?? framesPerSecond
            granted = VideoSourceFormat(
                width: grantedWidth, height: grantedHeight, framesPerSecond: grantedRate, pixelFormat: V4L2Camera.fourCC(pixelFormat))
        } catch {
            close(fd)
            throw error
        }
        // From here on every stored property is set: a throw runs deinit, which unmaps and closes.
        converter = try CameraFrameConverter(
            device: device, pixelFormat: pixelFormat, width: granted.width, height: granted.height, bytesPerLine: bytesPerLine)
        try mapBuffers(count: bufferCount)
        var type = Int32(V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue)
        try V4L2Camera.ioctl(fd, onair_VIDIOC_STREAMON(), &type, "VIDIOC_STREAMON")
        streaming = true
    }

    deinit {
        if streaming {
            var type = Int32(V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue)
            _ = withUnsafeMutablePointer(to: &type) { Glibc.ioctl(fd, onair_VIDIOC_STREAMOFF(), $0) }
        }
        unmapAll()
        close(fd)
    }

    /// Opens the device node, turning errno into the operator's words (missing, busy, no permission).
    private static func openDevice(_ device: String) throws -> Int32 {
        do {
            return try CCall.posix("open") { open(device, O_RDWR | O_NONBLOCK | O_CLOEXEC) }
        } catch {
            guard case let .system(_, code) = error else { throw error }
            switch code {
            case ENOENT, ENODEV, ENXIO: throw MediaError.deviceMissing(.camera, path: device)
            case EBUSY: throw MediaError.deviceBusy(.camera, path: device)
            case EACCES, EPERM: throw MediaError.devicePermissionDenied(.camera, path: device)
            default: throw MediaError.system(function: "open(\(device))", errno: code)
            }
        }
    }

    /// An ioctl through the error funnel (EINTR retried, errno and request name kept).
    private static func ioctl<Argument>(_ fd: Int32, _ request: UInt, _ argument: inout Argument, _ name: String) throws {
        try withUnsafeMutablePointer(to: &argument) { pointer in
            _ = try CCall.posix("ioctl(\(name))") { Glibc.ioctl(fd, request, pointer) }
        }
    }

    private static func checkCapabilities(_ fd: Int32, device: String) throws {
        var capability = v4l2_capability()
        do {
            try ioctl(fd, onair_VIDIOC_QUERYCAP(), &capability, "VIDIOC_QUERYCAP")
        } catch {
            throw MediaError.notACaptureDevice(path: device, reason: "VIDIOC_QUERYCAP failed: not a V4L2 device")
        }
        let caps = capability.capabilities & UInt32(V4L2_CAP_DEVICE_CAPS) != 0 ? capability.device_caps : capability.capabilities
        guard caps & UInt32(V4L2_CAP_VIDEO_CAPTURE) != 0 else {
            throw MediaError.notACaptureDevice(path: device, reason: "no video capture (a metadata or output node?)")
        }
        guard caps & UInt32(V4L2_CAP_STREAMING) != 0 else {
            throw MediaError.notACaptureDevice(path: device, reason: "no streaming I/O")
        }
    }

    private static func offeredFormats(_ fd: Int32) -> [UInt32] {
        var formats: [UInt32] = []
        for index in 0..<64 {
            var description = v4l2_fmtdesc()
            description.index = UInt32(index)
            description.type = V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue
            do { try ioctl(fd, onair_VIDIOC_ENUM_FMT(), &description, "VIDIOC_ENUM_FMT") } catch { break } // EINVAL ends the list
            formats.append(description.pixelformat)
        }
        return formats
    }

    /// The preferred wire format among those offered (see the type's note).
    static func choose(from offered: [UInt32], width: Int, height: Int) -> UInt32? {
        let raw = [onair_V4L2_PIX_FMT_YUV420(), onair_V4L2_PIX_FMT_NV12(), onair_V4L2_PIX_FMT_YUYV()]
        let preference = width * height > 640 * 480 ? [onair_V4L2_PIX_FMT_MJPEG()] + raw : raw + [onair_V4L2_PIX_FMT_MJPEG()]
        return preference.first { offered.contains($0) }
    }

    /// Asks for `framesPerSecond` and returns what the driver granted, or nil if it cannot set rates.
    private static func negotiateRate(_ fd: Int32, _ framesPerSecond: Double) -> Double? {
        var parameters = v4l2_streamparm()
        parameters.type = V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue
        parameters.parm.capture.timeperframe = v4l2_fract(numerator: 1000, denominator: UInt32((framesPerSecond * 1000).rounded()))
        do {
            try ioctl(fd, onair_VIDIOC_S_PARM(), &parameters, "VIDIOC_S_PARM")
            try ioctl(fd, onair_VIDIOC_G_PARM(), &parameters, "VIDIOC_G_PARM")
        } catch {
            return nil
        }
        let fraction = parameters.parm.capture.timeperframe
        guard fraction.numerator > 0, fraction.denominator > 0 else { return nil }
        return Double(fraction.denominator) / Double(fraction.numerator)
    }

    private func mapBuffers(count: Int) throws {
        var request = v4l2_requestbuffers()
        request.count = UInt32(count)
        request.type = V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue
        request.memory = V4L2_MEMORY_MMAP.rawValue
        try V4L2Camera.ioctl(fd, onair_VIDIOC_REQBUFS(), &request, "VIDIOC_REQBUFS")
        guard request.count >= 2 else { throw MediaError.notACaptureDevice(path: device, reason: "the driver granted \(request.count) buffers") }
        for index in 0..<request.count {
            var buffer = v4l2_buffer()
            buffer.type = V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue
            buffer.memory = V4L2_MEMORY_MMAP.rawValue
            buffer.index = index
            try V4L2Camera.ioctl(fd, onair_VIDIOC_QUERYBUF(), &buffer, "VIDIOC_QUERYBUF")
            let length = Int(buffer.length)
            let offset = off_t(buffer.m.offset)
            // libswscale may read up to 32 bytes past a frame's last row (FrameScaler): a frame that fills its
            // pages — 640x480 and 1280x720 YUYV do — would otherwise be copied for every conversion (+26 and
            // +150 µs a frame, measured). So the buffer is mapped over the start of a reserved area one page
            // longer, whose last page stays anonymous zeros.
            let page = Int(sysconf(Int32(_SC_PAGESIZE)))
            let readable = Self.pageRounded(length) + page
            guard let area = mmap(nil, readable, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0), area != MAP_FAILED else {
                throw MediaError.system(function: "mmap(\(device))", errno: errno)
            }
            guard let start = mmap(area, length, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED, fd, offset), start == area else {
                let failure = errno
                munmap(area, readable)
                throw MediaError.system(function: "mmap(\(device))", errno: failure)
            }
            buffers.append((start, length, readable))
            mappedLengths.append(length)
            try V4L2Camera.ioctl(fd, onair_VIDIOC_QBUF(), &buffer, "VIDIOC_QBUF")
        }
    }

    private func unmapAll() {
        for buffer in buffers { munmap(buffer.start, buffer.readable) }
        buffers.removeAll()
        mappedLengths.removeAll()
    }

    /// Waits (poll, 2 s at most) for the next filled buffer, converts it to I420, and gives the buffer back.
    /// What the driver says of the buffer is checked first (``V4L2DequeuedBuffer``): one it marked damaged or
    /// left empty is a skipped frame, and only such buffers for 2 s is a stopped camera, as no buffer is.
    public func read() throws -> VideoFrame {
        let giveUp = MonotonicClock.now() + Self.frameWaitMilliseconds * 1_000_000
        while true {
            var buffer = try dequeue()
            defer { _ = try? V4L2Camera.ioctl(fd, onair_VIDIOC_QBUF(), &buffer, "VIDIOC_QBUF") }
            if let last = lastDriverSequence { skippedFrames += V4L2Camera.skipped(after: last, at: buffer.sequence) }
            lastDriverSequence = buffer.sequence
            switch try V4L2DequeuedBuffer(buffer).verdict(mappedLengths: mappedLengths, device: device) {
            case .frame(let index, let byteCount):
                var capture = MonotonicClock.now()
                if buffer.flags & UInt32(V4L2_BUF_FLAG_TIMESTAMP_MASK) == UInt32(V4L2_BUF_FLAG_TIMESTAMP_MONOTONIC),
                   let stamped = V4L2Camera.nanoseconds(seconds: Int(buffer.timestamp.tv_sec), microseconds: Int(buffer.timestamp.tv_usec)) {
                    capture = stamped
                }
                defer { sequence += 1 }
                let bytes = UnsafeRawBufferPointer(start: buffers[index].start, count: byteCount)
                guard let converter else { throw MediaError.notACaptureDevice(path: device, reason: "no converter") }
                return try converter.convert(bytes, readableLength: buffers[index].readable, capture: capture, sequence: sequence)
            case .skip:
                skippedFrames += 1
                guard MonotonicClock.now() < giveUp else {
                    throw MediaError.notACaptureDevice(path: device, reason: "only damaged or empty buffers for 2 s: the camera is failing")
                }
            }
        }
    }

    /// A mapping's readable length: `mmap` maps whole pages.
    static func pageRounded(_ length: Int) -> Int {
        let page = max(1, Int(sysconf(Int32(_SC_PAGESIZE))))
        let (padded, overflow) = length.addingReportingOverflow(page - 1)
        return overflow ? length : padded / page * page
    }

    /// How long a read waits for a usable frame before the camera counts as stopped.
    static let frameWaitMilliseconds: UInt64 = 2000

    /// The next filled buffer (`VIDIOC_DQBUF`), after waiting for one with poll.
    private func dequeue() throws -> v4l2_buffer {
        while true {
            var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let ready = try CCall.posix("poll(\(device))") { poll(&descriptor, 1, Int32(Self.frameWaitMilliseconds)) }
            guard ready > 0 else {
                throw MediaError.notACaptureDevice(path: device, reason: "no frame for 2 s: the camera stopped or was unplugged")
            }
            var buffer = v4l2_buffer()
            buffer.type = V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue
            buffer.memory = V4L2_MEMORY_MMAP.rawValue
            do {
                try V4L2Camera.ioctl(fd, onair_VIDIOC_DQBUF(), &buffer, "VIDIOC_DQBUF")
                return buffer
            } catch {
                // EAGAIN: poll woke without a filled buffer (non-blocking fd); wait again.
                guard case let MediaError.system(_, code) = error, code == EAGAIN else { throw error }
            }
        }
    }

    /// A driver's monotonic timestamp in nanoseconds; nil when it is negative or past 2⁶⁴ ns (a broken
    /// driver's: `UInt64(_:)` of a negative `tv_sec` trapped), and the frame is stamped on arrival instead.
    static func nanoseconds(seconds: Int, microseconds: Int) -> UInt64? {
        guard seconds >= 0, (0..<1_000_000).contains(microseconds), seconds < Int(UInt64.max / 1_000_000_000) - 1 else { return nil }
        return UInt64(seconds) * 1_000_000_000 + UInt64(microseconds) * 1000
    }

    /// Frames the driver dropped between two of its sequence numbers (32-bit, they wrap); a step back (a
    /// restarted stream) is none. `last + 1` trapped at `UInt32.max`, and a step back then underflowed.
    static func skipped(after last: UInt32, at sequence: UInt32) -> Int {
        let step = sequence &- last
        return step > 1 && step < 1 << 31 ? Int(step - 1) : 0
    }

    /// "YUYV" from the little-endian four-character code.
    static func fourCC(_ code: UInt32) -> String {
        String(decoding: (0..<4).map { UInt8(truncatingIfNeeded: code >> ($0 * 8)) }, as: UTF8.self)
    }
}
