import OnAirControl
import OnAirCore
import OnAirMedia

extension PublishFrontEnd {
    /// Outputs 2…N of `onair publish URL URL …`, or nil with one URL (the single-output path is unchanged).
    /// Each URL is checked as the first is (a bad one is a usage error, exit 2) and gets its own client
    /// configuration (`--ca-file` applies to every rtmps:// output). The link stage stands in front of
    /// output 1 only, so `--link-*` with several URLs is refused rather than silently impairing one.
    static func furtherOutputs(
        _ options: PublishOptions, first: StreamURL, engine: MediaEngine, presentation: FrontEndPresentation, notice: (String) -> Void
    ) throws -> OutputGroup? {
        guard !options.furtherURLs.isEmpty else { return nil }
        if options.network.asksForLinkStage {
            throw FrontEndExit(code: 2, message: "onair publish: --link-* impairs one connection; give one URL with it")
        }
        let further = try options.furtherURLs.map { text in
            let url = try FrontEndSetup.streamURL(text, command: "publish")
            return (url, try FrontEndSetup.rtmpConfiguration(url: url, caFile: options.caFile, command: "publish", notice: notice))
        }
        return OutputGroup(
            first: first, further: further, engine: engine,
            initialType: options.initialType ?? .live,
            sendTimeout: try FrontEndSetup.seconds(options.sendTimeout, option: "--send-timeout", command: "publish"),
            clock: presentation.clock, events: presentation.events)
    }
}
