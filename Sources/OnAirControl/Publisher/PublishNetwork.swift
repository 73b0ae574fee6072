import OnAirCore
import OnAirMedia
import OnAirLink
import OnAirNet
import Synchronization

/// The publisher's network pieces for `onair publish` and `onair demo` (console and headless): the measure
/// of what the wire carried, read from the kernel on the publisher's own connection to the server
/// (`PublisherTCPProbe`: rtmp:// and rtmps://, direct or through the stage), adaptive bitrate fed from it
/// (read ten times a second, judged once a second), and, only when an impairment is asked for, the link
/// stage between the publisher and the server. The stage is an impairment only: nothing is measured there.
///
/// ABR's throughput is the bytes the server's TCP acknowledged, and its queue delay is the least that the
/// engine's queue and the kernel's unacknowledged bytes held during the second, at that rate
/// (`TCPSendPath`, `SendPathMeter`): figures of what the wire carried, never of what was configured. Each
/// change is applied to the encoder between two frames and written as an `abr` event.
public final class PublishNetwork: Sendable {
    /// The link stage the publisher connects through; nil on the direct path.
    public let stage: LinkImpairment?
    /// Reads TCP_INFO of the publisher's connection; `PublisherController` hands it to each connection.
    public let probe = PublisherTCPProbe()
    /// ABR's burst probe holds the pump's writes here (`PublisherController` hands it to the pump).
    public let sendHold = SendHold()
    private let sampler: Task<Void, Never>
    /// What ABR asks of the encoder now (nil with `--abr off`): the dashboard's and `stats`' `abrTarget`.
    private let target: TargetCell
    /// The kernel's counters across the broadcast's connections, as of the newest reading.
    private let path = PathCell()
    /// Where the `link` and `abr` events go (stdout headless, `--log FILE` in the console).
    private let events: @Sendable (OnAirEvent) -> Void
    private let clock: SessionClock

    /// Starts reading the publisher's socket, and ABR (with a configuration); `PublishNetwork.start` in
    /// OnAirApp makes both, and the stage, from the command line.
    public init(
        stage: LinkImpairment?, configuration: AdaptiveBitrateConfiguration?, engine: MediaEngine, clock: SessionClock,
        events: @escaping @Sendable (OnAirEvent) -> Void
    ) {
        self.stage = stage
        self.events = events
        self.clock = clock
        let target = TargetCell(configuration.map { AdaptiveBitrate($0).target })
        self.target = target
        let probe = self.probe
        let path = self.path
        let hold = self.sendHold
        // On the socket's own event loop, asleep on the loop's timer: each 100 ms read of TCP_INFO then wakes
        // one thread, not four (a `Task.sleep` went through the task pool's timer and threads).
        let executor = EventLoopTaskExecutor.following(probe: probe)
        sampler = Task(executorPreference: executor) {
            await Self.sample(
                configuration, probe: probe, path: path, stage: stage, engine: engine, clock: clock, target: target, hold: hold,
                sleep: executor, events: events)
        }
    }

    public func stop() {
        sampler.cancel()
        stage?.stop()
    }

    /// What ABR asks of the encoder now; nil with `--abr off`.
    public var abrTarget: AdaptiveBitrateTarget? { target.value.withLock { $0 } }

    /// Bytes the server's TCP acknowledged over the broadcast, and when the kernel was read: the publisher's
    /// `bitrate` and the send-stall watchdog count these. A rate is taken between two readings' own times,
    /// never the reader's tick: on a loaded machine a reading may come late, and dividing a late count by
    /// the tick's second showed 0 and then twice the cap through a 500 kbit/s link.
    public var acknowledged: (bytes: UInt64, at: SessionTime)? {
        path.value.withLock { cell in cell.readAt.map { (cell.path.acknowledgedBytes, $0) } }
    }

    /// The server's own count of what it read (its newest RTMP Acknowledgement) beside the kernel's
    /// acknowledged bytes on the same connection; nil until the server acknowledged a window.
    public var serverAcknowledgement: RTMPAcknowledgementCheck.Verdict? { path.value.withLock { $0.acknowledgement } }

    /// Bytes the kernel holds that the server has not acknowledged yet.
    public var heldBytes: Int { path.value.withLock { $0.path.heldBytes } }

    /// Applies a link command to the stage and writes the `link` event with the command and the new state;
    /// nil without a stage (the command rule refuses them first).
    @discardableResult
    public func apply(_ command: LinkCommand) -> LinkImpairmentState? {
        guard let stage else { return nil }
        let state = stage.apply(command)
        events(OnAirEvent(time: clock.now, side: .publisher, .link(state: state.description, command: command.text, abr: nil)))
        return state
    }

    private static func sample(
        _ configuration: AdaptiveBitrateConfiguration?, probe: PublisherTCPProbe, path: PathCell, stage: LinkImpairment?,
        engine: MediaEngine, clock: SessionClock, target: TargetCell, hold: SendHold, sleep executor: EventLoopTaskExecutor,
        events: @Sendable (OnAirEvent) -> Void
    ) async {
        var meter = SendPathMeter()
        var machine = configuration.map { AdaptiveBitrate($0) }
        var outageSeen = false
        var disagreeing: Int?
        while !Task.isCancelled {
            let read = await probe.read()
            let readAt = read.map { clock.time(at: $0.at) } ?? clock.now
            let verdict = read.flatMap { read in
                probe.acknowledgements.flatMap { $0.connection == read.connection ? $0.check.verdict(tcpDelivered: read.sample.bytesAcknowledged) : nil }
            }
            let now = path.value.withLock { cell in
                cell.path.update(read?.sample, connection: read?.connection)
                cell.readAt = readAt
                if let verdict { cell.acknowledgement = verdict }
                return cell.path
            }
            if let verdict, let read {
                // Said once per connection while the disagreement lasts, again if it comes back.
                if verdict.disagrees, disagreeing != read.connection {
                    disagreeing = read.connection
                    events(acknowledgementWarning(verdict, at: readAt))
                } else if !verdict.disagrees {
                    disagreeing = nil
                }
            }
            if var current = machine {
                // Sent: what the server's TCP acknowledged. Queued: the engine's queue and what the kernel
                // holds unsent or unacknowledged, so a slow path (a kernel link, a real network, the stage's
                // cap) shows as queue delay at once instead of after its buffers fill.
                let load = engine.sendLoad
                let reading = now.reading(
                    at: readAt, engineQueuedBytes: load.queuedBytes, droppedPackets: load.congestionDrops,
                    offered: load.offeredBitsPerSecond)
                var input = AdaptiveBitrate.Input.tick(reading.time)
                if let sample = meter.sample(reading) {
                    // The window an outage ends in measured part outage: its rate says nothing either.
                    if !isOutage(sample) && !outageSeen { input = .sample(sample) }
                    outageSeen = isOutage(sample)
                }
                for action in current.handle(input) {
                    switch action {
                    case let .retarget(change):
                        engine.apply(change.new)
                        target.value.withLock { $0 = change.new }
                        events(event(change, input: input, link: stage.map { $0.state.description } ?? "direct"))
                    case let .burst(duration):
                        hold.hold(for: duration)
                    }
                }
                machine = current
            }
            await executor.sleep(for: SendPathMeter.pollInterval)
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

    /// The `warning` that the server's RTMP Acknowledgements and the kernel's TCP figure disagree.
    static func acknowledgementWarning(_ verdict: RTMPAcknowledgementCheck.Verdict, at time: SessionTime) -> OnAirEvent {
        let text = verdict.gap > 0
            ? "TCP counts \(verdict.gap) bytes more than the server acknowledged reading (RTMP Acknowledgement): something between acknowledges for it, or it stopped reading; the bitrate shown may be above what it received"
            : "the server acknowledged reading \(-verdict.gap) bytes more than TCP counts as delivered: TCP_INFO undercounts this connection"
        return OnAirEvent(time: time, side: .publisher, .reported(kind: "warning", details: [
            "text": .string(text),
            "serverAcknowledgedBytes": .integer(Int64(clamping: verdict.serverRead)),
            "tcpAcknowledgedBytes": .integer(Int64(clamping: verdict.tcpDelivered)),
        ]))
    }

    /// Below this a link with media waiting carries nothing that counts: not even a mono voice codec.
    static let outageRate = 32_000

    /// The `abr` event: the old and new target, the reason, and the measurements that led to it.
    public static func event(_ change: AdaptiveBitrateChange, input: AdaptiveBitrate.Input, link: String) -> OnAirEvent {
        var details: [String: JSONValue] = [
            "reason": .string(change.reason.name),
            "old": .string(change.old.description), "new": .string(change.new.description),
            "oldBitrate": .integer(Int64(change.old.videoBitrate)), "newBitrate": .integer(Int64(change.new.videoBitrate)),
            "fps": .number(change.new.framesPerSecond), "audioOnly": .bool(change.new.audioOnly),
            "link": .string(link),
        ]
        if case let .sample(sample) = input {
            details["throughput"] = .integer(Int64(sample.throughput))
            details["queueDelayMs"] = .integer(sample.queueDelay.wholeMilliseconds)
            details["offered"] = .integer(Int64(sample.offered))
        }
        return OnAirEvent(time: sampleTime(input), side: .publisher, .reported(kind: "abr", details: details))
    }

    private static func sampleTime(_ input: AdaptiveBitrate.Input) -> SessionTime {
        switch input {
        case let .sample(sample): sample.time
        case let .tick(time): time
        }
    }

    /// The kernel's counters shared by the sampler (writer) and the front end's loop (reader).
    final class PathCell: Sendable {
        struct Counters {
            var path = TCPSendPath()
            var readAt: SessionTime?
            /// The server's newest Acknowledgement against the same connection's TCP figure.
            var acknowledgement: RTMPAcknowledgementCheck.Verdict?
        }

        let value = Mutex(Counters())
    }

    /// The target shared by the sampler (writer) and the front end's loop (reader).
    public final class TargetCell: Sendable {
        let value: Mutex<AdaptiveBitrateTarget?>

        init(_ initial: AdaptiveBitrateTarget?) {
            value = Mutex(initial)
        }
    }
}
