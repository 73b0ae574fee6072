/// A YUV4MPEG2 (.y4m) clip looped in real time: a camera stand-in and the benchmark's fixed input.
///
/// Only 4:2:0 8-bit clips are accepted (`C420`, `C420jpeg`, `C420paldv`, `C420mpeg2`, or no `C` tag): they
/// are the encoder's own format, so the file's bytes reach x264 without a conversion.
/// Format: https://wiki.multimedia.cx/index.php/YUV4MPEG2
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
    /// The last frame's bytes, read into again once nothing else holds them: the engine encodes a file's
    /// frame before reading the next, so a looped 720p clip costs no 1.4 MB allocation per frame. (A frame
    /// still held elsewhere is never overwritten: the array copies itself first.)
    private var planes: [UInt8] = []

    /// The parsed stream header.
    struct Header: Equatable {
        var width: Int
        var height: Int
        var framesPerSecond: Double
        var colourSpace: String
        var length: Int
    }

    public init(path: String, pacing: Pacing = .realTime) throws {
        file = try FileDescriptor(readingFrom: path)
        let head = try file.read(count: 512, at: 0)
        let header = try Y4MFileSource.parseHeader(head, path: path)
        firstFrameOffset = header.length
        frameBytes = VideoFrame.byteCount(width: header.width, height: header.height)
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
    }

    /// Parses "YUV4MPEG2 W640 H360 F30:1 Ip A1:1 C420jpeg\n".
    static func parseHeader(_ bytes: [UInt8], path: String) throws -> Header {
        let magic = Array("YUV4MPEG2 ".utf8)
        guard bytes.count >= magic.count, Array(bytes[0..<magic.count]) == magic,
            let newline = bytes.firstIndex(of: 0x0A)
        else { throw MediaError.fileWrongKind(path: path, expected: "a YUV4MPEG2 (.y4m) video file") }
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
        guard ["420", "420jpeg", "420paldv", "420mpeg2"].contains(header.colourSpace) else {
            throw MediaError.formatUnsupported("\(path) is Y4M C\(header.colourSpace); OnAir reads 8-bit 4:2:0 only: ffmpeg -i IN -pix_fmt yuv420p OUT.y4m")
        }
        return header
    }

    public func read() throws -> VideoFrame {
        let tick = try pacer.next()
        skippedFrames += tick.skipped
        let recordOffset = firstFrameOffset + nextFrame * (6 + frameBytes)
        let marker = try file.read(count: 6, at: recordOffset)
        guard marker == Array("FRAME\n".utf8) else {
            throw MediaError.fileUnreadable(path: file.path, reason: "frame \(nextFrame) has frame parameters or a bad FRAME marker; re-write it with ffmpeg")
        }
        if planes.count != frameBytes { planes = [UInt8](repeating: 0, count: frameBytes) }
        let got = try planes.withUnsafeMutableBytes { buffer in try file.read(into: buffer, at: recordOffset + 6) }
        guard got == frameBytes else {
            throw MediaError.fileUnreadable(path: file.path, reason: "frame \(nextFrame) is truncated")
        }
        let frame = VideoFrame(
            width: granted.width, height: granted.height, planes: planes, captureNanoseconds: tick.time, sequenceNumber: sequence)
        sequence += 1 + tick.skipped
        nextFrame += 1
        if nextFrame == frameCount {
            nextFrame = 0
            loops += 1
        }
        return frame
    }
}
