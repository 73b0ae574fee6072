/// Where pictures come from.
public enum VideoSourceSpec: Sendable, Equatable, CustomStringConvertible {
    /// The synthetic colour bars with a frame counter and clock.
    case testPattern
    /// The test pattern with moving grain on its bars (`--video grain`): fills any bitrate, like a camera.
    case grainyTestPattern
    /// A .y4m clip, looped.
    case y4mFile(String)
    /// A V4L2 device such as /dev/video0.
    case camera(String)

    public var description: String {
        switch self {
        case .testPattern: return "test pattern"
        case .grainyTestPattern: return "grainy test pattern"
        case let .y4mFile(path): return path
        case let .camera(device): return device
        }
    }
}
