import ArgumentParser
import OnAirApp

struct SubscribeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "subscribe",
        abstract: "Play a stream from an RTMP server and follow the publisher's interrupt notices."
    )

    @Argument(help: "What to play: rtmp[s]://host[:port]/app/stream (rtmps: TLS, port 443 by default, certificate verified)")
    var url: String

    @OptionGroup var subscriber: SubscriberOptions
    @OptionGroup var tls: TLSOptions
    @OptionGroup var streamKey: StreamKeyOptions
    @OptionGroup var presentation: PresentationOptions

    @Option(parsing: .unconditional, help: ArgumentHelp(
        "Unix time (seconds, e.g. from `date +%s.%N`) at which frame 0 of a pattern made by `onair pattern` was due.",
        discussion: "Glass-to-glass latency of a file-made pattern counts from here (frame n is due n/fps later)."))
    var patternEpoch: Double?

    func run() async throws {
        let options = SubscribeOptions(
            url: try streamKey.url(url),
            reconnectDelay: subscriber.reconnectDelay,
            stallTimeout: subscriber.stallTimeout,
            duration: presentation.duration,
            theme: presentation.theme,
            color: presentation.color,
            logFile: presentation.log,
            previewFramesPerSecond: presentation.previewFps,
            caFile: tls.caFile,
            patternEpoch: patternEpoch
        )
        try await runFrontEnd {
            if presentation.headless {
                try await SubscribeFrontEnd.runHeadless(options)
            } else {
                try await SubscribeFrontEnd.runConsole(options)
            }
        }
    }
}
