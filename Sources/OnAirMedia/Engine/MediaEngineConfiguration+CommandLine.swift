import Foundation

/// Building a configuration from the `onair` command line's strings (`--video`, `--audio`, `--size`,
/// `--fps`, `--bitrate`, `--audio-bitrate`, `--audio-merge-ms`), so the executable stays wiring only (docs/conventions.md §11).
extension MediaEngineConfiguration {
    /// The configuration and the one-line notices to show (e.g. "no camera at /dev/video0; using the test pattern …").
    public static func fromCommandLine(
        video: String?, audio: String?, size: String = "1280x720", framesPerSecond: Double = 30,
        bitrate: String = "2500k", audioBitrate: String = "128k", audioMergeMilliseconds: Int = 40,
        resolver: SourceResolver = SourceResolver()
    ) throws -> (configuration: MediaEngineConfiguration, notices: [String]) {
        let videoSource = try resolver.video(video)
        let audioSource = try resolver.audio(audio)
        let (width, height) = try parseSize(size)
        let configuration = MediaEngineConfiguration(
            video: videoSource.spec, audio: audioSource.spec, width: width, height: height, framesPerSecond: framesPerSecond,
            videoBitrate: try parseBitrate(bitrate, option: "--bitrate"), audioBitrate: try parseBitrate(audioBitrate, option: "--audio-bitrate"),
            audioMergeMilliseconds: audioMergeMilliseconds)
        try configuration.validate()
        return (configuration, [videoSource.notice, audioSource.notice].compactMap { $0 })
    }

    /// "1280x720" → (1280, 720).
    public static func parseSize(_ text: String) throws -> (width: Int, height: Int) {
        let parts = text.lowercased().split(separator: "x")
        guard parts.count == 2, let width = Int(parts[0]), let height = Int(parts[1]), width > 0, height > 0 else {
            throw MediaError.invalidConfiguration("--size '\(text)': write WIDTHxHEIGHT, e.g. 1280x720")
        }
        return (width, height)
    }

    /// "2500k", "2.5M", "128000" → bits per second.
    public static func parseBitrate(_ text: String, option: String = "--bitrate") throws -> Int {
        let trimmed = text.trimmingCharacters(in: .whitespaces).lowercased()
        var multiplier = 1.0
        var number = Substring(trimmed)
        if trimmed.hasSuffix("k") { multiplier = 1_000; number = number.dropLast() }
        if trimmed.hasSuffix("m") { multiplier = 1_000_000; number = number.dropLast() }
        guard let value = Double(number), value > 0, value * multiplier < 1e9 else {
            throw MediaError.invalidConfiguration("\(option) '\(text)': write bits per second, e.g. 2500k or 2.5M")
        }
        return Int((value * multiplier).rounded())
    }
}
