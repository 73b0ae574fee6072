import Glibc

/// Every failure OnAirMedia reports, each rendered as one line that says what happened and what to do.
///
/// One error type for the whole engine because the app shows these verbatim to an operator: a single
/// `description` per case keeps the wording consistent, and the C funnel (`CCall`) can produce the low-level
/// cases that the sources then translate into the operator-facing ones (missing device, busy device, ...).
public enum MediaError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Which kind of device a device error is about, so the message can name it and the flag that replaces it.
    public enum Device: String, Sendable, Equatable {
        case camera
        case microphone
    }

    case deviceMissing(Device, path: String)
    case deviceBusy(Device, path: String)
    case devicePermissionDenied(Device, path: String)
    case notACaptureDevice(path: String, reason: String)
    case formatUnsupported(String)
    case codecNotFound(String)
    case fileUnreadable(path: String, reason: String)
    /// A file OnAir writes (`onair pattern --out`) could not be created or written.
    case fileUnwritable(path: String, reason: String)
    case fileWrongKind(path: String, expected: String)
    case invalidSource(String)
    case invalidConfiguration(String)
    case alreadyStarted
    /// A POSIX call failed with `errno` (after retrying EINTR).
    case system(function: String, errno: Int32)
    /// A libavcodec / libavutil / libswscale call returned a negative AVERROR code.
    case libav(function: String, code: Int32, message: String)
    /// A libasound call returned a negative error code.
    case alsa(function: String, code: Int32, message: String)

    public var description: String {
        switch self {
        case let .deviceMissing(.camera, path):
            return "no camera at \(path); plug one in, pick another /dev/videoN, or use --video test"
        case let .deviceMissing(.microphone, path):
            return "no audio capture device '\(path)'; check `arecord -L`, or use --audio test"
        case let .deviceBusy(device, path):
            return "\(device.rawValue) \(path) is busy (another program is using it); close that program or choose another device"
        case let .devicePermissionDenied(device, path):
            return "no permission to open \(device.rawValue) \(path); add your user to the 'video'/'audio' group"
        case let .notACaptureDevice(path, reason):
            return "\(path) is not a usable capture device (\(reason)); pick another /dev/videoN or use --video test"
        case let .formatUnsupported(detail):
            return "format unsupported: \(detail)"
        case let .codecNotFound(name):
            return "codec \(name) not found in libavcodec; install an FFmpeg build that includes it (Debian: libavcodec59 with libx264)"
        case let .fileUnreadable(path, reason):
            return "cannot read \(path): \(reason); check the path and its permissions"
        case let .fileUnwritable(path, reason):
            return "cannot write \(path): \(reason); give a path in a writable directory with room to spare"
        case let .fileWrongKind(path, expected):
            return "\(path) is not \(expected); convert it with ffmpeg or pick another file"
        case let .invalidSource(detail):
            return "unknown source \(detail)"
        case let .invalidConfiguration(detail):
            return "invalid media configuration: \(detail)"
        case .alreadyStarted:
            return "the media engine is already running; stop it before starting it again"
        case let .system(function, code):
            return "\(function) failed: \(String(cString: strerror(code))) (errno \(code))"
        case let .libav(function, code, message):
            return "\(function) failed: \(message) (AVERROR \(code))"
        case let .alsa(function, code, message):
            return "\(function) failed: \(message) (ALSA \(code))"
        }
    }
}
