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

    /// "1280x720" → (1280, 720); the message names the range `validate()` allows.
    public static func parseSize(_ text: String) throws -> (width: Int, height: Int) {
        let parts = text.lowercased().split(separator: "x")
        guard parts.count == 2, let width = Int(parts[0]), let height = Int(parts[1]), width > 0, height > 0 else {
            throw MediaError.invalidConfiguration("--size '\(text)': write WIDTHxHEIGHT with even sides between 16x16 and 4096x2304, e.g. 1280x720")
        }
        return (width, height)
    }

    /// The bitrates `--bitrate` and `--audio-bitrate` take, stated in their messages.
    public static let videoBitrates = 50_000...500_000_000
    public static let audioBitrates = 16_000...512_000

    /// "2500k", "2.5M", "128000" → bits per second, within `range` (a message that names it otherwise).
    public static func parseBitrate(_ text: String, option: String = "--bitrate", in range: ClosedRange<Int>? = nil) throws -> Int {
        let range = range ?? (option == "--audio-bitrate" ? audioBitrates : videoBitrates)
        let trimmed = text.trimmingCharacters(in: .whitespaces).lowercased()
        var multiplier = 1.0
        var number = Substring(trimmed)
        if trimmed.hasSuffix("k") { multiplier = 1_000; number = number.dropLast() }
        if trimmed.hasSuffix("m") { multiplier = 1_000_000; number = number.dropLast() }
        if trimmed.hasSuffix("g") { multiplier = 1_000_000_000; number = number.dropLast() }
        let bits = Double(number).map { $0 * multiplier }
        guard let bits, bits.isFinite, bits >= Double(range.lowerBound), bits <= Double(range.upperBound) else {
            throw MediaError.invalidConfiguration(
                "\(option) '\(text)': give bits per second between \(rateText(range.lowerBound)) and \(rateText(range.upperBound)), e.g. 2500k or 2.5M")
        }
        return Int(bits.rounded())
    }

    /// `50k`, `500M`: a bound as the options write it.
    private static func rateText(_ bits: Int) -> String {
        bits % 1_000_000 == 0 ? "\(bits / 1_000_000)M" : "\(bits / 1000)k"
    }
}
