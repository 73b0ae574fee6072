/// What video carries while the camera is lost (`--on-camera-loss`), so that the video track keeps flowing
/// with advancing timestamps and no subscriber sees a gap (docs/devices.md).
public enum CameraLossFill: String, Sendable, Hashable, CaseIterable {
    /// The last picture again, re-stamped (Moblin's gap filler).
    case freeze
    /// A card saying the camera is unavailable, with the live clock and the frame marker, so glass-to-glass
    /// and "shows video captured after the last press" keep working: the default.
    case slate
    /// Black frames.
    case black
}
