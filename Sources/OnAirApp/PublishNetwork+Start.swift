import OnAirControl
import OnAirCore
import OnAirMedia
import OnAirNet

extension PublishNetwork {
    /// Starts the stage toward `url`'s server (rtmp:// only), and ABR when asked; returns the URL the
    /// publisher names (always `url` unchanged: `clientConfiguration` routes the socket to the stage, so
    /// `connect`'s `tcUrl` names the server the operator gave, issue 32) and what to stop at the end. Asking for `--abr` or `--link-*` with rtmps:// is a usage error.
    static func start(
        _ options: NetworkOptions, url: StreamURL, engine: MediaEngine, clock: SessionClock, command: String,
        events: @escaping @Sendable (HeadlessEvent) -> Void
    ) throws -> (url: StreamURL, network: PublishNetwork?) {
        if options.direct {
            guard !options.asksForLinkStage else {
                throw FrontEndExit(code: 2, message: "onair \(command): --abr and --link-* need the link stage; drop them or --direct")
            }
            return (url, nil)
        }
        guard url.scheme == .rtmp else {
            guard !options.asksForLinkStage else {
                throw FrontEndExit(code: 2, message: "onair \(command): --abr and --link-* work with rtmp:// URLs for now; drop them or publish without TLS")
            }
            return (url, nil)
        }
        let stage: LinkImpairment
        do {
            stage = try LinkImpairment(targetHost: url.host, targetPort: url.port, state: options.initialLinkState)
        } catch {
            throw FrontEndExit(code: 1, message: "onair \(command): cannot start the link stage: \(error)")
        }
        events(HeadlessEvent(time: clock.now, side: .publisher, kind: "link", details: [
            "state": .string(stage.state.description), "abr": .string(options.abr.rawValue),
        ]))
        let configuration = options.abr == .off ? nil : AdaptiveBitrateConfiguration(
            mode: options.abr, ceiling: engine.configuration.videoBitrate,
            audioBitrate: engine.configuration.audio == nil ? 0 : engine.configuration.audioBitrate,
            framesPerSecond: engine.configuration.framesPerSecond, requireVideo: options.abrRequireVideo)
        return (url, PublishNetwork(stage: stage, configuration: configuration, engine: engine, clock: clock, events: events))
    }

    /// The client configuration for a publisher behind this stage: the hop to the stage is loopback (no
    /// round trip to cover), so the client's socket may hold only `LinkImpairment.clientUnsentLimit` unsent.
    /// What it holds is the one part of the send queue the stage cannot count; at the default 64 KiB that
    /// was 0.64 s at 800 kbit/s that ABR never saw (the subscriber's glass-to-glass grew to 466 ms while
    /// ABR's queue delay read under 150 ms).
    /// The socket dials the stage's loopback port (`route`) while every field sent names the URL.
    static func clientConfiguration(_ rtmp: RTMPClient.Configuration, through network: PublishNetwork?) -> RTMPClient.Configuration {
        guard let network else { return rtmp }
        var configuration = rtmp
        configuration.unsentBytesLimit = LinkImpairment.clientUnsentLimit
        configuration.route = RTMPClient.Route(host: "127.0.0.1", port: network.stage.port)
        return configuration
    }
}
