import OnAirControl
import OnAirCore
import OnAirMedia
import OnAirNet

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

    /// The network options output 1's `PublishNetwork` runs with: with several outputs its own ABR is off,
    /// as ABR then runs across every output (`OutputGroup.startAdaptiveBitrate`).
    static func networkOptions(_ options: PublishOptions) -> NetworkOptions {
        var network = options.network
        if !options.furtherURLs.isEmpty { network.abr = .off }
        return network
    }
}

extension OutputGroup {
    /// `--abr ladder|throughput` across the outputs, with the single output's configuration.
    func startAdaptiveBitrate(_ options: PublishOptions, probe: PublisherTCPProbe, engine: MediaEngine) {
        guard options.network.abr != .off else { return }
        let configuration = AdaptiveBitrateConfiguration(
            mode: options.network.abr, ceiling: engine.configuration.videoBitrate,
            audioBitrate: engine.configuration.audio == nil ? 0 : engine.configuration.audioBitrate,
            framesPerSecond: engine.configuration.framesPerSecond, requireVideo: options.network.abrRequireVideo)
        startAdaptiveBitrate(configuration, firstProbe: probe, engine: engine)
    }
}
