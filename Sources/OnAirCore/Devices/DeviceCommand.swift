/// A capture device taken away or given back, as keys, stdin lines and scenario presses name it:
/// `camera-lost`, `camera-back`, `mic-lost`, `mic-back` (docs/devices.md).
///
/// Why a command of its own: a phone broadcaster's third kind of interruption is the device (the camera
/// taken by another app, a headset unplugged), and it acts at the capture source, under every policy and
/// with every source (test pattern, files, tone, V4L2, ALSA), not on the publisher's session.
public enum DeviceCommand: String, Sendable, Hashable, CaseIterable {
    case cameraLost = "camera-lost"
    case cameraBack = "camera-back"
    case micLost = "mic-lost"
    case micBack = "mic-back"

    /// The device the command is about.
    public var device: CaptureDevice {
        switch self {
        case .cameraLost, .cameraBack: .camera
        case .micLost, .micBack: .microphone
        }
    }

    /// True for `camera-lost` and `mic-lost`.
    public var takesAway: Bool { self == .cameraLost || self == .micLost }
}

/// The two capture devices a broadcast has.
public enum CaptureDevice: String, Sendable, Hashable, CaseIterable {
    case camera
    case microphone
}
