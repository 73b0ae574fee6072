import OnAirCore
import OnAirMedia
import OnAirLink
import Synchronization

/// The publisher's network pieces for `onair publish` and `onair demo` (console and headless): the link
/// impairment stage between the publisher and the server, and adaptive bitrate fed from what left the
/// stage (read ten times a second, judged once a second). Every rtmp:// publisher goes through a stage, so
/// the link keys and commands work without asking for them at launch; rtmps:// goes straight to the server.
///
/// ABR's throughput is the stage's count of bytes the server's TCP acknowledged, and its queue delay is the
/// least that the engine's queue and the stage's unread and unacknowledged bytes held during the second, at
/// that rate (`SendPathMeter`): figures of what the wire carried, never of what was configured. Each change
/// is applied to the encoder between two frames and written as an `abr` event.
public final class PublishNetwork: Sendable {
    public let stage: LinkImpairment
    private let sampler: Task<Void, Never>?
    /// What ABR asks of the encoder now (nil with `--abr off`): the dashboard's and `stats`' `abrTarget`.
    private let target: TargetCell
    /// Where the `link` and `abr` events go (stdout headless, `--log FILE` in the console).
    private let events: @Sendable (HeadlessEvent) -> Void
    private let clock: SessionClock

    /// Starts ABR's sampling (with a configuration) over `stage`; `PublishNetwork.start` in OnAirApp makes
    /// both from the command line.
    public init(
        stage: LinkImpairment, configuration: AdaptiveBitrateConfiguration?, engine: MediaEngine, clock: SessionClock,
        events: @escaping @Sendable (HeadlessEvent) -> Void
    ) {
        self.stage = stage
        self.events = events
        self.clock = clock
        let target = TargetCell(configuration.map { AdaptiveBitrate($0).target })
        self.target = target
        sampler = configuration.map { configuration in
            Task { await Self.sample(configuration, stage: stage, engine: engine, clock: clock, target: target, events: events) }
        }
    }

    public func stop() {
        sampler?.cancel()
        stage.stop()
    }

    /// What ABR asks of the encoder now; nil with `--abr off`.
    public var abrTarget: AdaptiveBitrateTarget? { target.value.withLock { $0 } }

    /// Applies a link command to the stage and writes the `link` event with the command and the new state.
    public func apply(_ command: LinkCommand) -> LinkImpairmentState {
        let state = stage.apply(command)
        events(HeadlessEvent(time: clock.now, side: .publisher, kind: "link", details: [
            "state": .string(state.description), "command": .string(command.text),
        ]))
        return state
    }

    private static func sample(
        _ configuration: AdaptiveBitrateConfiguration, stage: LinkImpairment, engine: MediaEngine, clock: SessionClock,
        target: TargetCell, events: @Sendable (HeadlessEvent) -> Void
    ) async {
        var meter = SendPathMeter()
        var machine = AdaptiveBitrate(configuration)
        var outageSeen = false
        while !Task.isCancelled {
            let load = engine.sendLoad
            let link = stage.counters
            // Sent: what the server's TCP acknowledged. Queued: the engine's queue, what the client sent that
            // the stage has not read yet (its cap holds it back) and what the stage's socket holds
            // unacknowledged, so a slow path past the stage (a kernel link, a real network) shows as queue
            // delay at once instead of after its buffers fill.
            let reading = SendPathMeter.Reading(
                time: clock.now, sentBytes: link.upstreamAcknowledgedBytes,
                queuedBytes: load.queuedBytes + link.upstreamWaitingBytes + link.upstreamUnacknowledgedBytes,
                droppedPackets: load.congestionDrops, offered: load.offeredBitsPerSecond)
            var input = AdaptiveBitrate.Input.tick(reading.time)
            if let sample = meter.sample(reading) {
                // The window an outage ends in measured part outage: its rate says nothing either.
                if !isOutage(sample) && !outageSeen { input = .sample(sample) }
                outageSeen = isOutage(sample)
            }
            for case let .retarget(change) in machine.handle(input) {
                engine.apply(change.new)
                target.value.withLock { $0 = change.new }
                events(event(change, input: input, link: stage.state))
            }
            try? await Task.sleep(for: SendPathMeter.pollInterval)
        }
    }

    /// Nothing acknowledged while media waits: the link is down (an elevator), not slow. A rate of zero says
    /// nothing about what the link carries when it returns, and stepping to audio-only on it only delays
    /// video after link-up (make bench, abr: the first frame captured after a 10 s elevator reached the server
    /// 6 s after link-up with `--abr throughput`, 0.05 s with `--abr off`); the queue's own drop to the next
    /// keyframe already sheds the backlog. ABR resumes with the second after the first one that moves bytes
    /// (that one measured part outage: after a 10 s elevator its 196 kbit/s sent the target to the floor).
    ///
    /// "Nothing" is less than `outageRate`: a link that is down still lets a retransmitted segment or two
    /// through a second (make bench, abr: 23 kbit/s in the first second after a 10 s elevator, while TCP's
    /// backed-off retransmission timer had not yet fired, took the target from 2500k to the floor).
    static func isOutage(_ sample: AdaptiveBitrate.Sample) -> Bool {
        sample.throughput < outageRate && sample.queueDelay > .zero
    }

    /// Below this a link with media waiting carries nothing that counts: not even a mono voice codec.
    static let outageRate = 32_000

    /// The `abr` event: the old and new target, the reason, and the measurements that led to it.
    public static func event(_ change: AdaptiveBitrateChange, input: AdaptiveBitrate.Input, link: LinkImpairmentState) -> HeadlessEvent {
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
            details["offered"] = .integer(Int64(sample.offered))
        }
        return HeadlessEvent(time: sampleTime(input), side: .publisher, kind: "abr", details: details)
    }

    private static func sampleTime(_ input: AdaptiveBitrate.Input) -> SessionTime {
        switch input {
        case let .sample(sample): sample.time
        case let .tick(time): time
        }
    }

    /// The target shared by the sampler (writer) and the front end's loop (reader).
    public final class TargetCell: Sendable {
        let value: Mutex<AdaptiveBitrateTarget?>

        init(_ initial: AdaptiveBitrateTarget?) {
            value = Mutex(initial)
        }
    }
}
