import OnAirCore
import OnAirMedia
import OnAirNet

/// The publisher's network pieces for `onair publish --headless`: the link impairment stage between the
/// publisher and the server, and adaptive bitrate fed once a second from what left the stage.
///
/// ABR's throughput is the stage's count of bytes delivered to the server, and its queue delay is the
/// engine's queued bytes at that rate (`SendPathMeter`): figures of what the wire carried, never of what
/// was configured. Each change is applied to the encoder between two frames and written as an `abr` event.
final class PublishNetwork: Sendable {
    let stage: LinkImpairment
    private let sampler: Task<Void, Never>?

    /// How often ABR reads the send path.
    static let samplingInterval = Duration.seconds(1)

    private init(stage: LinkImpairment, sampler: Task<Void, Never>?) {
        self.stage = stage
        self.sampler = sampler
    }

    /// Starts the stage toward `url`'s server when the options need it, and ABR when asked; returns the URL
    /// the publisher connects to (the stage's loopback port, or `url` unchanged) and what to stop at the end.
    static func start(
        _ options: NetworkOptions, url: StreamURL, engine: MediaEngine, clock: SessionClock, writer: JSONLinesWriter
    ) throws -> (url: StreamURL, network: PublishNetwork?) {
        guard options.needsLinkStage else { return (url, nil) }
        guard url.scheme == .rtmp else {
            throw FrontEndExit(code: 2, message: "onair publish: --abr and --link-* work with rtmp:// URLs for now; drop them or publish without TLS")
        }
        let stage: LinkImpairment
        do {
            stage = try LinkImpairment(targetHost: url.host, targetPort: url.port, state: options.initialLinkState)
        } catch {
            throw FrontEndExit(code: 1, message: "onair publish: cannot start the link stage: \(error)")
        }
        var local = url
        local.host = "127.0.0.1"
        local.port = stage.port
        writer.write(HeadlessEvent(time: clock.now, side: .publisher, kind: "link", details: [
            "state": .string(stage.state.description), "abr": .string(options.abr.rawValue),
        ]))
        guard options.abr != .off else { return (local, PublishNetwork(stage: stage, sampler: nil)) }
        let configuration = AdaptiveBitrateConfiguration(
            mode: options.abr, ceiling: engine.configuration.videoBitrate,
            audioBitrate: engine.configuration.audio == nil ? 0 : engine.configuration.audioBitrate,
            framesPerSecond: engine.configuration.framesPerSecond, requireVideo: options.abrRequireVideo)
        let sampler = Task {
            await sample(configuration, stage: stage, engine: engine, clock: clock, writer: writer)
        }
        return (local, PublishNetwork(stage: stage, sampler: sampler))
    }

    func stop() {
        sampler?.cancel()
        stage.stop()
    }

    private static func sample(
        _ configuration: AdaptiveBitrateConfiguration, stage: LinkImpairment, engine: MediaEngine, clock: SessionClock,
        writer: JSONLinesWriter
    ) async {
        var meter = SendPathMeter()
        var machine = AdaptiveBitrate(configuration)
        while !Task.isCancelled {
            let stats = engine.stats
            let reading = SendPathMeter.Reading(
                time: clock.now, sentBytes: stage.counters.upstreamBytes, queuedBytes: stats.output?.bytes ?? 0,
                droppedPackets: stats.drops.congestionVideoPackets + stats.drops.congestionAudioPackets)
            let input: AdaptiveBitrate.Input = meter.sample(reading).map { .sample($0) } ?? .tick(reading.time)
            for case let .retarget(change) in machine.handle(input) {
                engine.apply(change.new)
                writer.write(event(change, input: input, link: stage.state))
            }
            try? await Task.sleep(for: samplingInterval)
        }
    }

    /// The `abr` event: the old and new target, the reason, and the measurements that led to it.
    static func event(_ change: AdaptiveBitrateChange, input: AdaptiveBitrate.Input, link: LinkImpairmentState) -> HeadlessEvent {
        var details: [String: JSONValue] = [
            "reason": .string(change.reason.name),
            "old": .string(change.old.description), "new": .string(change.new.description),
            "oldBitrate": .integer(Int64(change.old.videoBitrate)), "newBitrate": .integer(Int64(change.new.videoBitrate)),
            "fps": .number(change.new.framesPerSecond), "audioOnly": .bool(change.new.audioOnly),
            "link": .string(link.description),
        ]
        if case let .sample(sample) = input {
            details["throughput"] = .integer(Int64(sample.throughput))
            details["queueDelayMs"] = .integer(sample.queueDelay.wholeMilliseconds)
        }
        return HeadlessEvent(time: sampleTime(input), side: .publisher, kind: "abr", details: details)
    }

    private static func sampleTime(_ input: AdaptiveBitrate.Input) -> SessionTime {
        switch input {
        case let .sample(sample): sample.time
        case let .tick(time): time
        }
    }
}
