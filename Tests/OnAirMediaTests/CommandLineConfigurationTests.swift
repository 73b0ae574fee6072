import Testing
@testable import OnAirMedia

@Suite("configuration from the command line")
struct CommandLineConfigurationTests {
    @Test("sizes and bitrates parse; the fallback notices come back with the configuration")
    func parses() throws {
        let result = try MediaEngineConfiguration.fromCommandLine(
            video: nil, audio: "test", size: "640x360", framesPerSecond: 25, bitrate: "2.5M", audioBitrate: "96k",
            resolver: SourceResolverTests.bare)
        #expect(result.configuration.width == 640 && result.configuration.height == 360)
        #expect(result.configuration.videoBitrate == 2_500_000 && result.configuration.audioBitrate == 96_000)
        #expect(result.configuration.video == .testPattern && result.configuration.audio == .tone(frequency: 440))
        #expect(result.notices == ["no camera at /dev/video0; using the test pattern (use --video test to silence this)"])
        #expect(try MediaEngineConfiguration.parseBitrate("128000") == 128_000)
    }

    @Test("bad values are refused with an example of a good one", arguments: ["1280", "x720", "1280x", "big"])
    func badSize(text: String) {
        #expect(throws: MediaError.invalidConfiguration("--size '\(text)': write WIDTHxHEIGHT with even sides between 16x16 and 4096x2304, e.g. 1280x720")) {
            try MediaEngineConfiguration.parseSize(text)
        }
    }

    @Test("odd sizes and silly bitrates fail validation")
    func invalid() {
        #expect(throws: MediaError.self) { try MediaEngineConfiguration.fromCommandLine(video: "test", audio: "test", size: "641x360") }
        #expect(throws: MediaError.self) { try MediaEngineConfiguration.parseBitrate("fast") }
        #expect(throws: MediaError.self) { try MediaEngineConfiguration.fromCommandLine(video: "test", audio: "test", bitrate: "10k") }
    }
}
