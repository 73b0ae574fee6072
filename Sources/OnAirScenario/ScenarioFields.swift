/// The fields an `expect SIDE FIELD …` line may name: those of the side's `state` and `stats` events
/// (docs/headless-events.schema.json, which a test keeps this list equal to). A misspelt field is a
/// parse error (exit 2) before anything runs, not a failure after the broadcast has played.
public enum ScenarioFields {
    public static let publisher: Set<String> = [
        "abrTarget", "audioLatencyP50Ms", "audioLatencyP99Ms", "bitrate", "bytesSent", "congestion",
        "congestionEvents", "dropped", "droppedAudioPackets", "droppedVideoPackets", "encodeMs",
        "encoderAudioBitrate", "encoderBitrate", "encoderFps", "encoderVideoBitrate", "fps", "framesEncoded",
        "framesSent", "keyframes", "latencyP50Ms", "latencyP99Ms", "lifecycle", "link", "onAirMs", "pauseAudio",
        "pauseVideo", "policy", "publishType", "queueDepth", "sendStalledMs", "status", "stream", "tapArmed",
        "tearDownInMs", "camera", "microphone", "framesFilled", "serverAcknowledgedBytes", "tcpAcknowledgedBytes",
    ]

    public static let subscriber: Set<String> = [
        "audioFramesDecoded", "audioLevelDb", "avOffsetMs", "bitrate", "connection", "decodeError",
        "droppedAudioPackets", "droppedVideoPackets", "fps",
        "framesDecoded", "framesDecodedTotal", "frozenMs", "glassToGlassP50Ms", "glassToGlassP99Ms",
        "lastFrameCapturedAtMs", "lastFrameNumber", "lifecycle", "link", "longestVideoGapMs", "markersUnreadable",
        "publisherIsDisconnected", "publisherIsInBackground", "reconnectAttempts", "renderActive", "renderPaused",
        "replayedFrames", "skippedAwaitingKeyframe", "skippedFrames", "skippedWhilePaused", "stream", "videoGapMs",
        "videoPackets", "slate",
    ]

    public static func names(of side: ScenarioExpectation.Side) -> Set<String> {
        side == .publisher ? publisher : subscriber
    }
}
