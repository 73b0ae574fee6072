import Glibc

/// Writes YUV4MPEG2 (.y4m) 4:2:0 files: the test pattern made ahead of time, for other publishers.
///
/// Why: `make bench` sends the same picture through OnAir's publisher and through the ffmpeg CLI; a Y4M
/// made by OnAir carries the same frame markers, so one subscriber measures both the same way.
/// Format: https://wiki.multimedia.cx/index.php/YUV4MPEG2
public final class Y4MWriter {
    public let path: String
    public let width: Int
    public let height: Int
    private let file: UnsafeMutablePointer<FILE>
    private var closed = false

    /// Creates (or truncates) `path` and writes the stream header.
    public init(path: String, width: Int, height: Int, framesPerSecond: Double) throws {
        guard width >= 16, height >= 16, width % 2 == 0, height % 2 == 0, framesPerSecond > 0, framesPerSecond <= 240 else {
            throw MediaError.invalidConfiguration("Y4M \(width)x\(height)@\(framesPerSecond): need an even size of at least 16x16 and 0 < fps ≤ 240")
        }
        guard let file = fopen(path, "wb") else {
            throw MediaError.fileUnwritable(path: path, reason: "cannot create it: \(String(cString: strerror(errno)))")
        }
        self.path = path
        self.width = width
        self.height = height
        self.file = file
        try write(Array(Y4MWriter.header(width: width, height: height, framesPerSecond: framesPerSecond).utf8))
    }

    deinit { if !closed { fclose(file) } }

    /// The stream header: `F30:1` for whole rates, `F29970:1000` otherwise; C420jpeg is what the encoder takes.
    static func header(width: Int, height: Int, framesPerSecond: Double) -> String {
        let rate = framesPerSecond.rounded() == framesPerSecond
            ? "\(Int(framesPerSecond)):1" : "\(Int((framesPerSecond * 1000).rounded())):1000"
        return "YUV4MPEG2 W\(width) H\(height) F\(rate) Ip A1:1 C420jpeg\n"
    }

    public func append(_ frame: VideoFrame) throws {
        guard frame.width == width, frame.height == height else {
            throw MediaError.invalidConfiguration("frame \(frame.width)x\(frame.height) in a \(width)x\(height) Y4M")
        }
        try write(Array("FRAME\n".utf8))
        try write(frame.planes)
    }

    /// Flushes and closes; a full disk shows here.
    public func close() throws {
        guard !closed else { return }
        closed = true
        if fclose(file) != 0 {
            throw MediaError.fileUnwritable(path: path, reason: "cannot finish writing: \(String(cString: strerror(errno)))")
        }
    }

    private func write(_ bytes: [UInt8]) throws {
        let written = bytes.withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, file) }
        guard written == bytes.count else {
            throw MediaError.fileUnwritable(path: path, reason: "write failed: \(String(cString: strerror(errno)))")
        }
    }
}
