import Testing
@testable import OnAirMedia

@Suite("--video / --audio resolution")
struct SourceResolverTests {
    static let bare = SourceResolver(cameraExists: { _ in false }, soundCardExists: { false })
    static let equipped = SourceResolver(cameraExists: { $0 == "/dev/video0" }, soundCardExists: { true })

    @Test("video values map to sources", arguments: [
        ("test", VideoSourceSpec.testPattern),
        ("grain", VideoSourceSpec.grainyTestPattern),
        ("clip.y4m", .y4mFile("clip.y4m")),
        ("/srv/Clip.Y4M", .y4mFile("/srv/Clip.Y4M")),
        ("/dev/video2", .camera("/dev/video2")),
    ])
    func video(value: String, expected: VideoSourceSpec) throws {
        #expect(try Self.bare.video(value) == .init(spec: expected, notice: nil))
    }

    @Test("audio values map to sources", arguments: [
        ("test", AudioSourceSpec.tone(frequency: 440)),
        ("voice.wav", .wavFile("voice.wav")),
        ("hw:0", .alsa("hw:0")),
        ("default", .alsa("default")),
        ("plughw:1,0", .alsa("plughw:1,0")),
    ])
    func audio(value: String, expected: AudioSourceSpec) throws {
        #expect(try Self.bare.audio(value) == .init(spec: expected, notice: nil))
    }

    @Test("no value and no device: synthetic, with a one-line notice saying how to silence it")
    func fallbackNotices() throws {
        let video = try Self.bare.video(nil)
        #expect(video.spec == .testPattern)
        #expect(video.notice == "no camera at /dev/video0; using the test pattern (use --video test to silence this)")
        let audio = try Self.bare.audio(nil)
        #expect(audio.spec == .tone(frequency: 440))
        #expect(audio.notice?.contains("--audio test") == true)
    }

    @Test("no value with devices present: the devices, silently")
    func devicesPresent() throws {
        #expect(try Self.equipped.video(nil) == .init(spec: .camera("/dev/video0"), notice: nil))
        #expect(try Self.equipped.audio(nil) == .init(spec: .alsa("default"), notice: nil))
    }

    @Test("values that are none of these are refused with the accepted forms")
    func unknown() {
        #expect(throws: MediaError.invalidSource("'clip.mp4' for --video; use test, grain, a .y4m file, or /dev/videoN")) {
            try Self.bare.video("clip.mp4")
        }
        #expect(throws: MediaError.self) { try Self.bare.audio("/tmp/song.mp3") }
    }
}
