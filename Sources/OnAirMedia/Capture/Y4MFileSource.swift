import CFFmpeg

/// A YUV4MPEG2 (.y4m) clip looped in real time: a camera stand-in and the benchmark's fixed input.
///
/// 4:2:0 8-bit clips (`C420`, `C420jpeg`, `C420paldv`, `C420mpeg2`, or no `C` tag) are the encoder's own format,
/// so the file's bytes reach x264 without a conversion; 4:2:2, 4:4:4, 10/12-bit and greyscale clips are
/// converted to it by libswscale (``Y4MColourSpace``).
/// Format: https://wiki.multimedia.cx/index.php/YUV4MPEG2
///
/// Why frames are mapped, not read (issue 31): x264 copies every picture into its own frame anyway, so a
/// mapped picture (`MappedPicture`) is lent to it as it is and that copy is the only one; a `pread` into a
/// buffer would be a second. A mapped clip that another process truncates would fault the app with SIGBUS on
/// the next touch of a lost page — a race no size check closes — so every mapped range is guarded: the lost
/// pages read as zeros, the encoder drops that picture, and the next read finds the clip short and fails the
/// track with a clear error. When no guard slot is free the frame is read into a few reused buffers instead.
public final class Y4MFileSource: VideoSource {
    public let requested: VideoSourceFormat
    public let granted: VideoSourceFormat
    public private(set) var skippedFrames = 0
    /// How many times the clip has wrapped back to its first frame.
    public private(set) var loops = 0
    public let frameCount: Int

    private let file: FileDescriptor
    private let firstFrameOffset: Int
    private let frameBytes: Int
    private var nextFrame = 0
    private var sequence = 0
    private var pacer: RealTimePacer
    /// Buffers read into in turn, so a looped 720p clip costs no 1.4 MB allocation and no copy per frame.
    /// The engine encodes a frame before reading the next, and the camera-loss wrapper keeps the previous
    /// frame (for `--on-camera-loss freeze`): with three buffers the one read into next is held by nobody
    /// else, so it is written in place. A buffer still held elsewhere is never overwritten (an array copies
    /// itself first), so a frame kept longer stays correct, only slower.
    private var pool: [[UInt8]]
    private var poolNext = 0
    static let poolSize = 3
    /// False: every frame is read into the pool (tests of that path; the fallback when mapping fails, and
    /// clips whose frames are converted).
    private let mapsFrames: Bool
    /// The file's frame layout; frames of any but 8-bit 4:2:0 are converted by `scaler`.
    private let layout: Y4MColourSpace
    private let scaler = FrameScaler()
    /// A converted clip's frame as the file holds it, and zeros after it: read, converted at once, read over by
    /// the next.
    private var unconverted: [UInt8] = []

    /// The most a header line may take (ffmpeg writes about 50 bytes; X-tags add some).
    static let maximumHeaderBytes = 4096
    /// The largest picture side accepted (H.264's level 6.2 tops out at 8192x4320; x264 refuses beyond 16384):
    /// bounds `width * height` before anything is allocated or multiplied.
    static let maximumSide = 16384
    /// The highest frame rate accepted: a pacer interval of 1 ms.
    static let maximumFramesPerSecond = 1000.0
    /// The lowest frame rate accepted: a frame a minute. The pacer turns `tick × interval` into a `UInt64` of
    /// nanoseconds, which traps past 1.8e19: `F1:100000000000` (1e-11 fps) ended the app on its second frame.
    static let minimumFramesPerSecond = 1.0 / 60

    /// The parsed stream header.
    struct Header: Equatable {
        var width: Int
        var height: Int
        var framesPerSecond: Double
        var colourSpace: String
        var length: Int
        /// What `colourSpace` names (checked by the parser).
        var layout: Y4MColourSpace { Y4MColourSpace(tag: colourSpace) ?? Y4MColourSpace(tag: "420jpeg")! }
    }

    public convenience init(path: String, pacing: Pacing = .realTime) throws {
        try self.init(path: path, pacing: pacing, mapsFrames: true)
    }

    init(path: String, pacing: Pacing, mapsFrames: Bool) throws {
        file = try FileDescriptor(readingFrom: path)
        let head = try file.read(count: Self.maximumHeaderBytes, at: 0)
        let header = try Y4MFileSource.parseHeader(head, path: path)
        layout = header.layout
        self.mapsFrames = mapsFrames && !layout.converts
        firstFrameOffset = header.length
        frameBytes = layout.frameBytes(width: header.width, height: header.height)
        let size = try file.size()
        let frameRecord = 6 + frameBytes // "FRAME\n" without parameters
        frameCount = (size - header.length) / frameRecord
        guard frameCount > 0 else {
            throw MediaError.fileUnreadable(path: path, reason: "the Y4M header announces \(header.width)x\(header.height) but no whole frame follows")
        }
        requested = VideoSourceFormat(
            width: header.width, height: header.height, framesPerSecond: header.framesPerSecond, pixelFormat: "y4m \(header.colourSpace)")
        granted = requested
        pacer = RealTimePacer(pacing: pacing, intervalNanoseconds: 1e9 / header.framesPerSecond)
        pool = Array(repeating: [], count: Self.poolSize)
    }

    /// Parses "YUV4MPEG2 W640 H360 F30:1 Ip A1:1 C420jpeg\n".
    static func parseHeader(_ bytes: [UInt8], path: String) throws -> Header {
        let magic = Array("YUV4MPEG2 ".utf8)
        guard bytes.count >= magic.count, Array(bytes[0..<magic.count]) == magic
        else { throw MediaError.fileWrongKind(path: path, expected: "a YUV4MPEG2 (.y4m) video file") }
        guard let newline = bytes.firstIndex(of: 0x0A) else {
            throw MediaError.fileUnreadable(path: path, reason: "the Y4M header line does not end within \(maximumHeaderBytes) bytes")
        }
        let line = String(decoding: bytes[magic.count..<newline], as: UTF8.self)
        var header = Header(width: 0, height: 0, framesPerSecond: 0, colourSpace: "420jpeg", length: newline + 1)
        for token in line.split(separator: " ") {
            let value = token.dropFirst()
            switch token.first {
            case "W": header.width = Int(value) ?? 0
            case "H": header.height = Int(value) ?? 0
            case "C": header.colourSpace = String(value)
            case "F":
                let parts = value.split(separator: ":").compactMap { Double($0) }
                if parts.count == 2, parts[1] > 0 { header.framesPerSecond = parts[0] / parts[1] }
            case "I":
                guard value == "p" || value == "?" else {
                    throw MediaError.formatUnsupported("\(path) is interlaced (I\(value)); deinterlace it: ffmpeg -i IN -vf yadif -pix_fmt yuv420p OUT.y4m")
                }
            default: continue
            }
        }
        guard header.width > 0, header.height > 0, header.framesPerSecond > 0 else {
            throw MediaError.fileUnreadable(path: path, reason: "the Y4M header lacks a width, height or frame rate (W, H, F)")
        }
        guard header.width <= maximumSide, header.height <= maximumSide,
              (minimumFramesPerSecond...maximumFramesPerSecond).contains(header.framesPerSecond) else {
            throw MediaError.fileUnreadable(
                path: path,
                reason: "the Y4M header announces \(header.width)x\(header.height) at \(header.framesPerSecond.formatted2) fps; OnAir reads "
                    + "at most \(maximumSide)x\(maximumSide) at 1 frame a minute to \(Int(maximumFramesPerSecond)) fps")
        }
        guard Y4MColourSpace(tag: header.colourSpace) != nil else {
            throw MediaError.formatUnsupported(
                "\(path) is Y4M C\(header.colourSpace); OnAir reads C\(Y4MColourSpace.tags.joined(separator: ", C")): "
                    + "ffmpeg -i IN -pix_fmt yuv420p OUT.y4m")
        }
        return header
    }

    public func read() throws -> VideoFrame {
        let tick = try pacer.next()
        skippedFrames += tick.skipped
        let recordOffset = firstFrameOffset + nextFrame * (6 + frameBytes)
        try checkMarker(at: recordOffset)
        let frame: VideoFrame
        if mapsFrames, let mapped = try mapFrame(at: recordOffset + 6) {
            frame = VideoFrame(
                width: granted.width, height: granted.height, mapped: mapped, captureNanoseconds: tick.time, sequenceNumber: sequence)
        } else if layout.converts {
            frame = try converted(at: recordOffset + 6, captureNanoseconds: tick.time)
        } else {
            frame = VideoFrame(
                width: granted.width, height: granted.height, planes: try readFrame(at: recordOffset + 6),
                captureNanoseconds: tick.time, sequenceNumber: sequence)
        }
        sequence += 1 + tick.skipped
        nextFrame += 1
        if nextFrame == frameCount {
            nextFrame = 0
            loops += 1
        }
        return frame
    }

    /// Frame `nextFrame`'s bytes, mapped; nil when they cannot be (no guard slot free), to be read instead.
    private func mapFrame(at offset: Int) throws -> MappedPicture? {
        guard let mapped = MappedPicture(descriptor: file.descriptor, offset: offset, count: frameBytes) else { return nil }
        // A file already shorter than this frame maps without complaint; its missing pages would read as zeros.
        guard try file.size() >= offset + frameBytes else { throw truncated() }
        return mapped
    }

    /// Frame `nextFrame`'s bytes, read into the next buffer of the pool.
    private func readFrame(at offset: Int) throws -> [UInt8] {
        let slot = poolNext
        poolNext = (poolNext + 1) % Self.poolSize
        if pool[slot].count != frameBytes { pool[slot] = VideoFrame.paddedBytes(count: frameBytes) { $0.initialize(repeating: 0) } }
        let got = try pool[slot].withUnsafeMutableBytes { buffer in try file.read(into: buffer, at: offset) }
        guard got == frameBytes else { throw truncated() }
        return pool[slot]
    }

    /// A frame of the file's layout as the encoder's 8-bit 4:2:0, through libswscale with the filter ffmpeg's CLI
    /// uses for a format conversion (bicubic), so a clip encodes as `-pix_fmt yuv420p` would have made it.
    private func converted(at offset: Int, captureNanoseconds: UInt64) throws -> VideoFrame {
        // libswscale may read a few bytes past a row's end (up to 32 measured, at odd or tiny widths): the
        // buffer has libavcodec's input padding after the frame, so the last row's over-read stays inside it.
        let padded = frameBytes + Int(AV_INPUT_BUFFER_PADDING_SIZE)
        if unconverted.count != padded { unconverted = [UInt8](repeating: 0, count: padded) }
        let got = try unconverted.withUnsafeMutableBytes { buffer in
            try file.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[..<frameBytes]), at: offset)
        }
        guard got == frameBytes else { throw truncated() }
        var frame = VideoFrame(width: granted.width, height: granted.height, captureNanoseconds: captureNanoseconds, sequenceNumber: sequence)
        let width = frame.width, height = frame.height, luma = frame.lumaCount, chroma = frame.chromaCount, chromaWidth = frame.chromaWidth
        try unconverted.withUnsafeBufferPointer { source in
            let base = source.baseAddress!
            let planes = layout.planes(width: width, height: height)
            let picture = FrameScaler.Picture(
                format: layout.pixelFormat!, width: width, height: height,
                planes: planes.map { Optional(base + $0.offset) }, strides: planes.map { Int32($0.stride) },
                readableBytesAfter: Int(AV_INPUT_BUFFER_PADDING_SIZE))
            try frame.planes.withUnsafeMutableBufferPointer { output in
                let out = output.baseAddress!
                try scaler.scale(
                    picture, into: [out, out + luma, out + luma + chroma], strides: [Int32(width), Int32(chromaWidth), Int32(chromaWidth)],
                    format: AV_PIX_FMT_YUV420P, width: width, height: height, flags: SWS_BICUBIC)
            }
        }
        return frame
    }

    private func truncated() -> MediaError {
        .fileUnreadable(path: file.path, reason: "frame \(nextFrame) is truncated (the clip shrank while playing?)")
    }

    /// The "FRAME\n" before frame `nextFrame`, read onto the stack (no allocation per frame).
    private func checkMarker(at offset: Int) throws {
        let expected: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) = (0x46, 0x52, 0x41, 0x4D, 0x45, 0x0A) // "FRAME\n"
        var marker: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) = (0, 0, 0, 0, 0, 0)
        let got = try withUnsafeMutableBytes(of: &marker) { try file.read(into: $0, at: offset) }
        guard got == 6 else { throw truncated() }
        guard marker == expected else {
            throw MediaError.fileUnreadable(path: file.path, reason: "frame \(nextFrame) has frame parameters or a bad FRAME marker; re-write it with ffmpeg")
        }
    }
}
