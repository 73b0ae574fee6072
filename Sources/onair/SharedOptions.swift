import ArgumentParser
import OnAirApp
import OnAirCore
import OnAirTerminal

/// The publisher's interrupt policy (docs/design.md §1.2).
extension PublisherPolicyKind: ExpressibleByArgument {}

extension PublishType: ExpressibleByArgument {}

extension ColorChoice: ExpressibleByArgument {}

extension CameraLossFill: ExpressibleByArgument {}

extension BackgroundVideo: ExpressibleByArgument {}

/// Options every front end shares: how it presents itself.
struct PresentationOptions: ParsableArguments {
    @Flag(help: "No terminal UI: print every event as one JSON object per line on stdout and read commands from stdin.")
    var headless = false

    @Option(help: "Colour theme for the console (see `onair themes`); monochrome draws no colour anywhere.")
    var theme = "default"

    @Option(help: ArgumentHelp("Also write every event to this file as JSON Lines (the headless schema), as the console runs.", valueName: "file"))
    var log: String?

    @Option(help: "Colour: auto (unless NO_COLOR is set or the theme has none), always, or never.")
    var color: ColorChoice = .auto

    @Option(parsing: .unconditional, help: "Highest preview refresh rate in frames per second, 0 to 30; 0 turns the preview off.",
            transform: NumberArgument.rate(in: 0...30))
    var previewFps: Double = 8

    @Option(parsing: .unconditional, help: "Stop cleanly after this long (seconds, or with a unit: 90s, 5m, 2h; at most a year).",
            transform: NumberArgument.seconds(in: NumberArgument.aMillisecond...NumberArgument.aYear))
    var duration: Double?
}

/// Options for the capture-and-encode engine (docs/design.md §4).
struct EngineOptions: ParsableArguments {
    @Option(help: "Video source: a V4L2 device (/dev/videoN), a .y4m file looped in real time, `test` for the test pattern, or `grain` for the pattern with moving grain on its bars (fills any bitrate, like a camera).")
    var video: String?

    @Option(help: "Audio source: an ALSA device (hw:0, default), a .wav file looped, or `test` for a tone.")
    var audio: String?

    // `.unconditional`: `--size -1x2` or `--bitrate -5` reach the range check (not "Missing value").
    @Option(parsing: .unconditional, help: "Video size as WIDTHxHEIGHT, even sides from 16x16 to 4096x2304.")
    var size = "1280x720"

    @Option(parsing: .unconditional, help: "Video frames per second, 1 to 120.", transform: NumberArgument.rate(in: 1...120))
    var fps: Double = 30

    @Option(parsing: .unconditional, help: "Video bitrate, e.g. 2500k or 2.5M (50k to 500M).")
    var bitrate = "2500k"

    @Option(parsing: .unconditional, help: "Audio bitrate, e.g. 128k (16k to 512k).")
    var audioBitrate = "128k"

    @Option(name: .customLong("audio-merge-ms"), parsing: .unconditional, help: ArgumentHelp(
        "Milliseconds an audio packet may wait to leave in one write with the next video frame (0: at once).",
        discussion: "Fewer wake-ups and socket writes, like a muxer's interleaving; video never waits."))
    var audioMergeMilliseconds = 40

    @Option(name: .customLong("on-camera-loss"), help: ArgumentHelp(
        "While the camera is lost (camera-lost, or the device fails): slate, freeze or black.",
        discussion: "Video keeps flowing with live timestamps: slate is a card with the live clock and frame marker, freeze the last picture, black black frames (docs/devices.md)."))
    var onCameraLoss: CameraLossFill = .slate

    @Option(name: .customLong("background-video"), help: ArgumentHelp(
        "While the app is away (background-audio's Home, a call): pause video, or slate (the camera is unavailable: the --on-camera-loss fill is sent).",
        discussion: "Vonage's background rule: an app cannot use the camera in the background (docs/devices.md)."))
    var backgroundVideo: BackgroundVideo = .pause

    func settings(previewFramesPerSecond: Double) -> EngineSettings {
        EngineSettings(
            video: video, audio: audio, size: size, framesPerSecond: fps,
            bitrate: bitrate, audioBitrate: audioBitrate, previewFramesPerSecond: previewFramesPerSecond,
            audioMergeMilliseconds: audioMergeMilliseconds, cameraLoss: onCameraLoss, backgroundVideo: backgroundVideo
        )
    }
}

/// Options for the publisher's interrupt handling (docs/design.md §1.2).
struct PolicyOptions: ParsableArguments {
    @Option(help: "Interrupt policy: tap-republish, resume-append or background-audio.")
    var policy: PublisherPolicyKind = .tapRepublish

    @Option(parsing: .unconditional, help: "background-audio: how long suspended (phone call) before the connection is dropped (seconds, or 90s, 2m; at most a day).",
            transform: NumberArgument.seconds(in: NumberArgument.aMillisecond...NumberArgument.aDay))
    var suspendTimeout: Double = 10

    @Option(parsing: .unconditional, help: "Seconds the socket may accept nothing before the publisher shows STALLED; three times that, the connection is torn down and reconnected.")
    var sendTimeout: Double = 5

    var kind: PublisherPolicyKind { policy }
}

/// Options for the subscriber (docs/design.md §1.3).
struct SubscriberOptions: ParsableArguments {
    @Option(parsing: .unconditional, help: "How long to wait after UnpublishNotify before playing again (seconds, or 500ms, 1m; at most a day).",
            transform: NumberArgument.seconds(in: NumberArgument.aMillisecond...NumberArgument.aDay))
    var reconnectDelay: Double = 2

    @Option(parsing: .unconditional, help: "How long without media, socket open, before the publisher is treated as gone (seconds, or 500ms, 1m; at most a day).",
            transform: NumberArgument.seconds(in: NumberArgument.aMillisecond...NumberArgument.aDay))
    var stallTimeout: Double = 3
}

/// Options for TLS (rtmps://).
struct TLSOptions: ParsableArguments {
    @Option(help: "rtmps:// only: trust just the certificate authorities in this PEM file (a private CA) instead of the system's roots.")
    var caFile: String?
}
