import OnAirMedia

/// The engine options every publishing front end shares, as typed on the command line.
public struct EngineSettings: Sendable, Equatable {
    public var video: String?
    public var audio: String?
    public var size: String
    public var framesPerSecond: Double
    public var bitrate: String
    public var audioBitrate: String
    public var previewFramesPerSecond: Double

    public init(
        video: String? = nil,
        audio: String? = nil,
        size: String = "1280x720",
        framesPerSecond: Double = 30,
        bitrate: String = "2500k",
        audioBitrate: String = "128k",
        previewFramesPerSecond: Double = 8
    ) {
        self.video = video
        self.audio = audio
        self.size = size
        self.framesPerSecond = framesPerSecond
        self.bitrate = bitrate
        self.audioBitrate = audioBitrate
        self.previewFramesPerSecond = previewFramesPerSecond
    }

    /// The engine configuration, and the notices to show (e.g. "no camera …; using the test pattern").
    public func configuration(resolver: SourceResolver = SourceResolver()) throws -> (MediaEngineConfiguration, [String]) {
        let (width, height) = try CommandLineValue.size(size)
        let video = try resolver.video(self.video)
        let audio = try resolver.audio(self.audio)
        let configuration = MediaEngineConfiguration(
            video: video.spec,
            audio: audio.spec,
            width: width,
            height: height,
            framesPerSecond: try CommandLineValue.framesPerSecond(framesPerSecond),
            videoBitrate: try CommandLineValue.bitrate(bitrate, option: "--bitrate"),
            audioBitrate: try CommandLineValue.bitrate(audioBitrate, option: "--audio-bitrate"),
            previewFramesPerSecond: max(0, previewFramesPerSecond)
        )
        return (configuration, [video.notice, audio.notice].compactMap { $0 })
    }
}
