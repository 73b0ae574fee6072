/// What video does while the publisher's app is away from the foreground (`--background-video`), when its
/// policy pauses video there (background-audio's Home, a call).
///
/// Vonage's note on background state: an app cannot use the camera in the background, so a background-audio
/// publisher either stops video or shows something else. `pause` is Red5's pauseVideo (nothing is sent;
/// players keep the last picture); `slate` treats the camera as lost and sends the `--on-camera-loss` fill —
/// the slate by default — so the video track and its timestamps keep flowing and a subscriber sees why.
public enum BackgroundVideo: String, Sendable, Hashable, CaseIterable {
    case pause
    case slate
}
