/// What a video source delivers: its size and rate as asked for and as granted.
///
/// A camera may grant another size or rate than requested; the dashboard shows both, so an operator
/// sees "asked 1280x720@30, got 640x480@15" instead of wondering why the picture is soft.
public struct VideoSourceFormat: Sendable, Equatable, CustomStringConvertible {
    public var width: Int
    public var height: Int
    public var framesPerSecond: Double
    /// The camera's wire format (YUYV, MJPEG, YU12) or the file/pattern kind.
    public var pixelFormat: String

    public init(width: Int, height: Int, framesPerSecond: Double, pixelFormat: String) {
        self.width = width
        self.height = height
        self.framesPerSecond = framesPerSecond
        self.pixelFormat = pixelFormat
    }

    public var description: String {
        "\(width)x\(height)@\(framesPerSecond.formatted2) \(pixelFormat)"
    }
}

/// A picture source read by one capture thread: blocking `read`, paced by the source itself.
///
/// Sources own C resources (file descriptors, mmap'd buffers, codec contexts); they are created, read and
/// closed on the one capture thread (see `WorkerThread`), which is why the protocol is not `Sendable`.
public protocol VideoSource: AnyObject {
    var requested: VideoSourceFormat { get }
    var granted: VideoSourceFormat { get }
    /// Blocks until the next frame is due or captured.
    func read() throws -> VideoFrame
    /// Frames the source itself skipped (late reader, driver sequence gaps).
    var skippedFrames: Int { get }
}
