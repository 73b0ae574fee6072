import OnAirControl
import OnAirCore
import OnAirMedia
import OnAirNet
import OnAirLink

extension PublishNetwork {
    /// Starts what the publisher's network needs: always the measure of the wire (TCP_INFO of the
    /// publisher's connection) and ABR when asked; the link stage only when an impairment is asked for
    /// (`--link-cap`, `--link-delay`) or `withStage` (the demo keeps its stages, so its link keys work), and
    /// only toward rtmp://. Returns the URL the publisher names — always `url` unchanged: `clientConfiguration`
    /// routes the socket to the stage, so `connect`'s `tcUrl` names the server the operator gave (issue 32).
    /// `--link-*` with rtmps:// or with `--direct` is a usage error.
    static func start(
        _ options: NetworkOptions, url: StreamURL, engine: MediaEngine, clock: SessionClock, command: String, withStage: Bool = false,
        events: @escaping @Sendable (OnAirEvent) -> Void
    ) throws -> (url: StreamURL, network: PublishNetwork) {
        if options.direct, options.asksForLinkStage {
            throw FrontEndExit(code: 2, message: "onair \(command): --link-* needs the link stage, which --direct leaves out; drop one of them")
        }
        if url.scheme != .rtmp, options.asksForLinkStage {
            throw FrontEndExit(code: 2, message: "onair \(command): --link-* works with rtmp:// URLs (the stage cannot see inside TLS); drop it or publish without TLS")
        }
        var configuration = options.abr == .off ? nil : AdaptiveBitrateConfiguration(
            mode: options.abr, ceiling: engine.configuration.videoBitrate,
            audioBitrate: engine.configuration.audio == nil ? 0 : engine.configuration.audioBitrate,
            framesPerSecond: engine.configuration.framesPerSecond, requireVideo: options.abrRequireVideo)
        // A held-back burst shows whether a capped link has room: on a direct path the kernel's round trip
        // rises behind a real bottleneck; behind the stage (below) its kernel waits on the receive window.
        configuration?.burstHold = .milliseconds(300)
        guard url.scheme == .rtmp, !options.direct, options.asksForLinkStage || withStage else {
            // No `link` event: there is no link stage to describe (the `abr` events say `link: direct`).
            return (url, PublishNetwork(stage: nil, configuration: configuration, engine: engine, clock: clock, events: events))
        }
        let stage: LinkImpairment
        do {
            stage = try LinkImpairment(
                targetHost: url.host, targetPort: url.port, state: options.initialLinkState,
                clientReceiveBufferBytes: LinkImpairment.publisherReceiveBuffer)
        } catch {
            throw FrontEndExit(code: 1, message: "onair \(command): cannot start the link stage: \(error)")
        }
        // The stage's cap holds bytes it has already acknowledged on loopback: the path's round trip never
        // grows behind it, and keyframes fit its burst and window (measured under an 800k stage cap at 80 %
        // of it: under 1 ms of queueing for 8 s in a row). A quiet path proves nothing here.
        configuration?.quietPathQueueing = .zero
        // A burst does: 300 ms of media at once overflows the cap's 100 ms bucket, and the stage then reads the
        // publisher's socket only as tokens come, so its kernel waits on the receive window — time the path's
        // queueing counts (`SendPathMeter`); a lifted stage reads at once. Without bursts a lift right after a
        // failed probe was found 24–57 s late (`StageLinkLiftTests`; with them 9 s).
        events(OnAirEvent(time: clock.now, side: .publisher, .link(state: stage.state.description, command: nil, abr: options.abr.rawValue)))
        return (url, PublishNetwork(stage: stage, configuration: configuration, engine: engine, clock: clock, events: events))
    }

    /// The client configuration for a publisher behind this stage: the hop to the stage is loopback (no
    /// round trip to cover), so the client's socket may hold only `LinkImpairment.clientUnsentLimit` unsent.
    /// What it holds is the one part of the send queue the stage cannot count; at the default 64 KiB that
    /// was 0.64 s at 800 kbit/s that ABR never saw (the subscriber's glass-to-glass grew to 466 ms while
    /// ABR's queue delay read under 150 ms).
    /// The socket dials the stage's loopback port (`route`) while every field sent names the URL.
    static func clientConfiguration(_ rtmp: RTMPClient.Configuration, through network: PublishNetwork) -> RTMPClient.Configuration {
        guard let stage = network.stage else { return rtmp }
        var configuration = rtmp
        configuration.unsentBytesLimit = LinkImpairment.clientUnsentLimit
        configuration.route = RTMPClient.Route(host: "127.0.0.1", port: stage.port)
        return configuration
    }
}
