extension PublisherAppState {
    /// The badge text: the status's, except `PAUSED A+V` when audio is paused as well as video (silence
    /// sent, no frames), so the badge never says only video is paused when nothing can be heard either.
    public var badge: String {
        status == .pausedVideo && pauseAudio ? "PAUSED A+V" : status.badge
    }
}
