import ArgumentParser
import OnAirApp
import OnAirCore

extension AdaptiveBitrateConfiguration.Mode: ExpressibleByArgument {}

/// `--abr`, `--abr-require-video`, `--link-cap`, `--link-delay` (publish, headless for now).
struct NetworkOptionGroup: ParsableArguments {
    @Option(help: "Adaptive bitrate: off, ladder (steps of the bitrate, Red5 Pro) or throughput (down to what the link carries, OBS/HaishinKit). Headless only for now.")
    var abr: AdaptiveBitrateConfiguration.Mode = .off

    @Flag(help: "With --abr: at the floor keep video at half the frame rate instead of going audio-only.")
    var abrRequireVideo = false

    @Option(help: "Publish through a link stage capped at RATE each way (e.g. 800k, 2.5M). Headless only for now.")
    var linkCap: String?

    @Option(help: "Publish through a link stage adding MS milliseconds each way. Headless only for now.")
    var linkDelay: String?

    /// The options as the app takes them; a bad value or use outside `--headless` is a usage error (status 2).
    func options(headless: Bool) throws -> NetworkOptions {
        let wanted = abr != .off || abrRequireVideo || linkCap != nil || linkDelay != nil
        if wanted, !headless {
            throw FrontEndExit(code: 2, message: "onair publish: --abr and --link-* work with --headless for now; add --headless or drop them")
        }
        do {
            return NetworkOptions(
                abr: abr, abrRequireVideo: abrRequireVideo,
                linkCap: try linkCap.map { text throws(LinkCommand.ParseError) in try LinkCommand.rate(text) },
                linkDelay: try linkDelay.map { text throws(LinkCommand.ParseError) in try LinkCommand.delay(text) })
        } catch {
            throw FrontEndExit(code: 2, message: "onair publish: \(error)")
        }
    }
}
