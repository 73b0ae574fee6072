import OnAirMedia
import OnAirCore

/// The engine options every publishing front end shares, as typed on the command line.
public struct EngineSettings: Sendable, Equatable {
    public var video: String?
    public var audio: String?
    public var size: String
    public var framesPerSecond: Double
    public var bitrate: String
    public var audioBitrate: String
    public var previewFramesPerSecond: Double
    /// `--audio-merge-ms`: see `MediaEngineConfiguration.audioMergeMilliseconds`.
    public var audioMergeMilliseconds: Int
    /// `--on-camera-loss`: see `MediaEngineConfiguration.cameraLoss`.
    public var cameraLoss: CameraLossFill
    /// `--background-video`: see `MediaEngineConfiguration.backgroundVideo`.
    public var backgroundVideo: BackgroundVideo

    public init(
        video: String? = nil,
        audio: String? = nil,
        size: String = "1280x720",
        framesPerSecond: Double = 30,
        bitrate: String = "2500k",
        audioBitrate: String = "128k",
        previewFramesPerSecond: Double = 8,
        audioMergeMilliseconds: Int = 40,
        cameraLoss: CameraLossFill = .slate,
        backgroundVideo: BackgroundVideo = .pause
    ) {
        self.backgroundVideo = backgroundVideo
        self.cameraLoss = cameraLoss
        self.video = video
        self.audio = audio
        self.size = size
        self.framesPerSecond = framesPerSecond
        self.bitrate = bitrate
        self.audioBitrate = audioBitrate
        self.previewFramesPerSecond = previewFramesPerSecond
        self.audioMergeMilliseconds = audioMergeMilliseconds
    }

    /// The engine configuration, and the notices to show (e.g. "no camera …; using the test pattern").
    public func configuration(resolver: SourceResolver = SourceResolver()) throws -> (MediaEngineConfiguration, [String]) {
        var (configuration, notices) = try MediaEngineConfiguration.fromCommandLine(
            video: video, audio: audio, size: size, framesPerSecond: framesPerSecond,
            bitrate: bitrate, audioBitrate: audioBitrate, audioMergeMilliseconds: audioMergeMilliseconds, resolver: resolver
        )
        configuration.previewFramesPerSecond = max(0, previewFramesPerSecond)
        configuration.cameraLoss = cameraLoss
        configuration.backgroundVideo = backgroundVideo
        return (configuration, notices)
    }

    /// These settings with the preview off: a headless front end shows no picture, so it must not pay for
    /// a downscale of every preview frame.
    var withoutPreview: EngineSettings {
        var settings = self
        settings.previewFramesPerSecond = 0
        return settings
    }
}
