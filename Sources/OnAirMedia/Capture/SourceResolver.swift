import Foundation

/// Turns the command line's `--video` / `--audio` strings into source specs.
///
/// `test` → synthetic; a path ending in .y4m / .wav → that file; `/dev/videoN` → a camera; anything else for
/// audio → an ALSA PCM name. With no value, the real device is used when present, otherwise the synthetic
/// source with a one-line notice, so `onair demo` works on a laptop, a server and CI alike.
public struct SourceResolver: Sendable {
    /// Whether a camera device node exists (injected by tests).
    public var cameraExists: @Sendable (String) -> Bool
    /// Whether any ALSA capture device exists (injected by tests).
    public var soundCardExists: @Sendable () -> Bool
    public var defaultCamera = "/dev/video0"

    public init(
        cameraExists: @escaping @Sendable (String) -> Bool = { FileManager.default.fileExists(atPath: $0) },
        soundCardExists: @escaping @Sendable () -> Bool = SourceResolver.anyCaptureDevice
    ) {
        self.cameraExists = cameraExists
        self.soundCardExists = soundCardExists
    }

    /// A resolved spec and the notice to show (nil when the operator asked for exactly this).
    public struct Resolution<Spec: Sendable & Equatable>: Sendable, Equatable {
        public var spec: Spec
        public var notice: String?
    }

    public func video(_ value: String?) throws -> Resolution<VideoSourceSpec> {
        guard let value, !value.isEmpty else {
            if cameraExists(defaultCamera) { return Resolution(spec: .camera(defaultCamera), notice: nil) }
            return Resolution(
                spec: .testPattern,
                notice: "no camera at \(defaultCamera); using the test pattern (use --video test to silence this)")
        }
        if value == "test" { return Resolution(spec: .testPattern, notice: nil) }
        if value == "grain" { return Resolution(spec: .grainyTestPattern, notice: nil) }
        if value.lowercased().hasSuffix(".y4m") { return Resolution(spec: .y4mFile(value), notice: nil) }
        if value.hasPrefix("/dev/") { return Resolution(spec: .camera(value), notice: nil) }
        throw MediaError.invalidSource("'\(value)' for --video; use test, grain, a .y4m file, or /dev/videoN")
    }

    public func audio(_ value: String?) throws -> Resolution<AudioSourceSpec> {
        guard let value, !value.isEmpty else {
            if soundCardExists() { return Resolution(spec: .alsa("default"), notice: nil) }
            return Resolution(
                spec: .tone(frequency: 440),
                notice: "no sound card; using a 440 Hz tone (use --audio test to silence this)")
        }
        if value == "test" { return Resolution(spec: .tone(frequency: 440), notice: nil) }
        if value.lowercased().hasSuffix(".wav") { return Resolution(spec: .wavFile(value), notice: nil) }
        if value.contains("/") { throw MediaError.invalidSource("'\(value)' for --audio; use test, a .wav file, or an ALSA name like hw:0 or default") }
        return Resolution(spec: .alsa(value), notice: nil)
    }

    /// True when /dev/snd holds a capture PCM node (pcmC<card>D<device>c).
    public static let anyCaptureDevice: @Sendable () -> Bool = {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: "/dev/snd")) ?? []
        return names.contains { $0.hasPrefix("pcmC") && $0.hasSuffix("c") }
    }
}
