import ArgumentParser
import OnAirApp
import OnAirCore

extension AdaptiveBitrateConfiguration.Mode: ExpressibleByArgument {}

/// `--abr`, `--abr-require-video`, `--link-cap`, `--link-delay` (publish and demo, console and headless).
struct NetworkOptionGroup: ParsableArguments {
    @Option(help: "Adaptive bitrate from the kernel's TCP_INFO on the publisher's own connection (rtmp:// and rtmps://): off, ladder (steps of the bitrate, Red5 Pro) or throughput (down to what the link carries, OBS/HaishinKit).")
    var abr: AdaptiveBitrateConfiguration.Mode = .off

    @Flag(help: "With --abr: at the floor keep video at half the frame rate instead of going audio-only.")
    var abrRequireVideo = false

    @Option(parsing: .unconditional, help: "Publish through OnAir's link stage (rtmp:// only), capped at RATE each way (e.g. 800k, 2.5M).")
    var linkCap: String?

    @Option(parsing: .unconditional, help: "Publish through OnAir's link stage (rtmp:// only), adding MS milliseconds each way (0: unimpaired, for the link keys).")
    var linkDelay: String?

    @Flag(help: "Never use the loopback link stage (publish does not without --link-*; with it the demo's publisher connects straight too).")
    var direct = false

    /// The options as the app takes them; a bad value is a usage error (status 2).
    func options(command: String) throws -> NetworkOptions {
        do {
            return NetworkOptions(
                abr: abr, abrRequireVideo: abrRequireVideo,
                linkCap: try linkCap.map { text throws(LinkCommand.ParseError) in try LinkCommand.rate(text) },
                linkDelay: try linkDelay.map { text throws(LinkCommand.ParseError) in try LinkCommand.delay(text) },
                direct: direct)
        } catch {
            throw FrontEndExit(code: 2, message: "onair \(command): \(error)")
        }
    }
}
