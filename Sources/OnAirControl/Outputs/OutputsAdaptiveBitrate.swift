import OnAirCore
import OnAirMedia
import OnAirNet

/// `--abr` with several outputs: an `AdaptiveBitrate` per output, each fed from its own path (what its
/// server's TCP acknowledged, what its own queue and socket hold, its own queue's drops), and the one
/// encode set to the lowest target of the healthy outputs (`OutputRateDecision`; docs/multi-destination.md).
///
/// Read ten times a second, as `PublishNetwork` reads the single output's path. Each output's own change is
/// an `outputAbr` event; each change of the encoder's target is an `abr` event (the single output's
/// fields, plus which outputs were counted and which were left out).
final class OutputsAdaptiveBitrate: Sendable {
    /// What the sampler reads of one output.
    struct Path: Sendable {
        var output: Int
        var probe: PublisherTCPProbe
        var load: @Sendable () -> (bytes: Int, droppedPackets: Int)
        var live: @Sendable () -> Bool
    }

    private let task: Task<Void, Never>

    init(
        _ configuration: AdaptiveBitrateConfiguration, paths: [Path], engine: MediaEngine, clock: SessionClock,
        events: @escaping @Sendable (OnAirEvent) -> Void
    ) {
        task = Task.detached {
            await Self.sample(configuration, paths: paths, engine: engine, clock: clock, events: events)
        }
    }

    func stop() { task.cancel() }

    private struct OutputState {
        var path = TCPSendPath()
        var meter = SendPathMeter()
        var machine: AdaptiveBitrate
        var outageSeen = false
    }

    private static func sample(
        _ configuration: AdaptiveBitrateConfiguration, paths: [Path], engine: MediaEngine, clock: SessionClock,
        events: @Sendable (OnAirEvent) -> Void
    ) async {
        var states = paths.map { _ in OutputState(machine: AdaptiveBitrate(configuration)) }
        let top = AdaptiveBitrate(configuration).top
        var decision = OutputRateDecision(top: top, floor: configuration.floor)
        var applied = top
        while !Task.isCancelled {
            let offered = engine.sendLoad.offeredBitsPerSecond
            var votes: [OutputRateDecision.Vote] = []
            for (index, path) in paths.enumerated() {
                let read = await path.probe.read()
                let readAt = read.map { clock.time(at: $0.at) } ?? clock.now
                states[index].path.update(read?.sample, connection: read?.connection)
                let load = path.load()
                let reading = states[index].path.reading(
                    at: readAt, engineQueuedBytes: load.bytes, droppedPackets: load.droppedPackets, offered: offered)
                var input = AdaptiveBitrate.Input.tick(reading.time)
                if let sample = states[index].meter.sample(reading) {
                    let outage = PublishNetwork.isOutage(sample)
                    if !outage && !states[index].outageSeen { input = .sample(sample) }
                    states[index].outageSeen = outage
                }
                for case let .retarget(change) in states[index].machine.handle(input) {
                    let event = PublishNetwork.event(change, input: input, link: "direct")
                    guard case .reported(_, var details) = event.kind else { continue }
                    details["output"] = .integer(Int64(path.output))
                    events(OnAirEvent(time: event.time, side: .publisher, .reported(kind: "outputAbr", details: details)))
                }
                votes.append(.init(output: path.output, target: states[index].machine.target, live: path.live()))
            }
            let now = clock.now
            let chosen = decision.decide(votes, at: now)
            if chosen.target != applied {
                engine.apply(chosen.target)
                events(OnAirEvent(time: now, side: .publisher, .reported(kind: "abr", details: [
                    "reason": .string("outputs"), "old": .string(applied.description), "new": .string(chosen.target.description),
                    "oldBitrate": .integer(Int64(applied.videoBitrate)), "newBitrate": .integer(Int64(chosen.target.videoBitrate)),
                    "fps": .number(chosen.target.framesPerSecond), "audioOnly": .bool(chosen.target.audioOnly), "link": .string("direct"),
                    "counted": .array(chosen.counted.map { .integer(Int64($0)) }),
                    "excluded": .object(Dictionary(uniqueKeysWithValues: chosen.excluded.map { ("\($0.key)", JSONValue.string($0.value)) })),
                ])))
                applied = chosen.target
            }
            try? await Task.sleep(for: SendPathMeter.pollInterval)
        }
    }
}
