import OnAirCore
import OnAirMedia
import OnAirNet
import Synchronization

/// The destinations of one broadcast after the first (`onair publish URL URL …`): the fan-out that copies
/// the one encode into a queue per output, and outputs 2…N, each a `BroadcastOutput` on its own task
/// (docs/multi-destination.md).
///
/// Output 1 stays the `PublisherController`'s own connection, unchanged (its session decides the app's
/// life, notices and policies, as with one URL); it only reads its packets from the fan-out's first queue
/// instead of the engine's. The others follow whether that broadcast wants to be on air (`follow`), get its
/// notices (`notify`), and fail, stall and recover on their own.
public final class OutputGroup: Sendable {
    public let fanOut: PacketFanOut
    /// Outputs 2…N, in the order their URLs were given.
    public let outputs: [BroadcastOutput]
    /// Output 1's URL (redacted in every event).
    public let firstURL: StreamURL
    private let onAir = Mutex<Bool?>(nil)
    /// Outputs the operator took off the broadcast (`output-stop N`): they no longer follow it until
    /// `output-start N`.
    let stopped = Mutex<Set<Int>>([])
    /// The output the console's output keys act on (1…N; `]` moves it).
    let focus = Mutex(1)
    /// Output 1's badge and connections opened, as its controller last reported them.
    private let first = Mutex<(state: String, connections: Int, live: Bool)>(("IDLE", 0, false))
    /// `--abr` across the outputs; nil with `--abr off`.
    private let adaptive = Mutex<OutputsAdaptiveBitrate?>(nil)
    private let initialType: PublishType
    private let ticker = Mutex<Task<Void, Never>?>(nil)
    private let clock: SessionClock
    private let events: @Sendable (OnAirEvent) -> Void
    /// The dashboard's rows and the byte counts they were last sampled from (`OutputGroup+Rows`).
    let rowSample = Mutex<(delivered: [DeliveredReading?], rows: [OutputRow])?>(nil)

    /// Builds the fan-out for `1 + urls.count` outputs and outputs 2…N (idle until `follow(onAir: true)`).
    public init(
        first: StreamURL, further urls: [(url: StreamURL, rtmp: RTMPClient.Configuration)], engine: MediaEngine,
        initialType: PublishType = .live, sendTimeout: Duration, clock: SessionClock, events: @escaping @Sendable (OnAirEvent) -> Void
    ) {
        let fanOut = PacketFanOut(outputs: urls.count + 1, engine: engine)
        self.fanOut = fanOut
        firstURL = first
        self.initialType = initialType
        self.clock = clock
        self.events = events
        outputs = urls.enumerated().map { offset, further in
            let index = offset + 2
            var generator = SystemRandomNumberGenerator()
            return BroadcastOutput(
                index: index, url: further.url, packets: fanOut.stream(index - 1), queue: fanOut.queues[index - 1], engine: engine,
                rtmp: further.rtmp, link: OutputLink(index: index, reconnect: ReconnectPolicy(using: &generator), sendTimeout: sendTimeout),
                clock: clock, events: events)
        }
    }

    /// Output 1's packets (the `PublisherController`'s pump reads these instead of the engine's).
    public var firstPackets: PacketStream { fanOut.stream(0) }

    /// Starts copying the engine's packets into every output's queue, and the `outputStats` events (one
    /// per output, once a second).
    public func start(_ engine: MediaEngine) {
        fanOut.start(engine.packets)
        let task = Task.detached { [weak self] in
            while !Task.isCancelled {
                try? await Task.sleep(for: .seconds(1))
                guard let self, !Task.isCancelled else { return }
                let now = self.clock.now
                for event in self.statsEvents(at: now) { self.events(event) }
                await self.sampleRows()
            }
        }
        ticker.withLock { $0 = task }
    }

    /// The broadcast wants to be on air (`true`) or not: outputs 2…N start or stop with it. Called after
    /// every input the broadcast's loop applies, with output 1's badge and connections opened for its
    /// `outputStats`; only a change of `wanted` is passed on.
    public func follow(onAir wanted: Bool, firstState: String, firstConnections: Int, firstLive: Bool) {
        first.withLock { $0 = (firstState, firstConnections, firstLive) }
        let changed = onAir.withLock { current in
            defer { current = wanted }
            return current != wanted
        }
        guard changed else { return }
        let held = stopped.withLock { $0 }
        for output in outputs where !held.contains(output.index) { output.post(.event(wanted ? .start(initialType) : .stop)) }
    }

    /// Starts ABR across the outputs: each output's own machine on its own path (output 1's through
    /// `firstProbe`, its controller's), the encoder at the lowest healthy target (`OutputRateDecision`).
    public func startAdaptiveBitrate(_ configuration: AdaptiveBitrateConfiguration, firstProbe: PublisherTCPProbe, engine: MediaEngine) {
        let fanOut = fanOut
        let first = Path(output: 1, probe: firstProbe, load: { fanOut.load(0) }, live: { [weak self] in
            self?.first.withLock { $0.live } ?? false
        })
        let further = outputs.map { output in
            Path(output: output.index, probe: output.probe, load: { output.queue.load }, live: { output.link.isLive && output.link.stall == nil })
        }
        let machine = OutputsAdaptiveBitrate(configuration, paths: [first] + further, engine: engine, clock: clock, events: events)
        adaptive.withLock { $0 = machine }
    }

    private typealias Path = OutputsAdaptiveBitrate.Path

    /// A notice the broadcast sends on output 1, sent on every other output that is live.
    public func notify(handler: String, parameter: String) {
        for output in outputs { output.post(.notice(handler: handler, parameter: parameter)) }
    }

    /// `r` for output `index` (2…N): drop its connection and publish again at once.
    public func reconnectNow(_ index: Int) -> Bool {
        guard let output = outputs.first(where: { $0.index == index }) else { return false }
        output.post(.event(.reconnectNow))
        return true
    }

    /// `output-stop N`: output N ends its publish and stays IDLE while the broadcast goes on; `output-start N`:
    /// it follows the broadcast again, publishing at once if the broadcast is on air. The gate checked N.
    public func perform(_ control: OutputControl, on index: Int) {
        guard let output = outputs.first(where: { $0.index == index }) else { return }
        switch control {
        case .stop:
            stopped.withLock { _ = $0.insert(index) }
            output.post(.event(.stop))
        case .start:
            stopped.withLock { _ = $0.remove(index) }
            if onAir.withLock({ $0 }) == true { output.post(.event(.start(initialType))) }
        }
    }

    /// The output the console's `r` and `X` act on.
    public var focusedOutput: Int { focus.withLock { $0 } }

    /// `]`: the next output (after N, output 1) gets the output keys; the dashboard's rows mark it at once.
    public func focusNext() -> Int {
        let count = 1 + outputs.count
        let next = focus.withLock { focused in
            focused = focused % count + 1
            return focused
        }
        rowSample.withLock { sample in
            guard var rows = sample?.rows else { return }
            for index in rows.indices { rows[index].focused = rows[index].index == next }
            sample?.rows = rows
        }
        return next
    }

    /// Whether the operator took output `index` off the broadcast (`output-stop N`).
    public func isStopped(_ index: Int) -> Bool { stopped.withLock { $0.contains(index) } }

    /// Why `output-stop N` / `output-start N` does nothing now, by output (2…N): stopping one already
    /// stopped, starting one that was not.
    public var controlRefusals: [OutputControl: [Int: String]] {
        let held = stopped.withLock { $0 }
        var refusals: [OutputControl: [Int: String]] = [.stop: [:], .start: [:]]
        for output in outputs {
            if held.contains(output.index) {
                refusals[.stop]?[output.index] = "output \(output.index) is already stopped (output-start \(output.index) puts it back)"
            } else {
                refusals[.start]?[output.index] = "output \(output.index) was not stopped (it follows the broadcast: \(output.link.stateText))"
            }
        }
        return refusals
    }

    /// The state word of output `index` for rows and events: STOPPED while the operator holds it off.
    func stateText(_ output: BroadcastOutput) -> String {
        stopped.withLock { $0.contains(output.index) } ? "STOPPED" : output.link.stateText
    }

    /// Ends every output and the fan-out.
    public func shutdown() async {
        ticker.withLock { $0 }?.cancel()
        adaptive.withLock { $0 }?.stop()
        fanOut.stop()
        await withTaskGroup(of: Void.self) { group in
            for output in outputs { group.addTask { await output.shutdown() } }
        }
    }

    /// Output 1's badge, connections opened and whether it is live, as its controller last reported them.
    var firstStatus: (state: String, connections: Int, live: Bool) { first.withLock { $0 } }

    /// What output 1's sockets took (its controller's meter), for its `outputStats`.
    let firstWire = Mutex<PublisherWireMeter?>(nil)

    /// Output 1's kernel view of its connection (its `PublishNetwork`'s probe), for its dashboard row.
    let firstProbe = Mutex<PublisherTCPProbe?>(nil)

    /// Output 1's meter and probe, handed over by its controller when it starts.
    func attachFirst(wire: PublisherWireMeter, probe: PublisherTCPProbe?) {
        firstWire.withLock { $0 = wire }
        firstProbe.withLock { $0 = probe }
    }

    /// The `outputStats` events, one per output: output 1's figures come from its controller.
    public func statsEvents(at now: SessionTime) -> [OnAirEvent] {
        let (state, connections, _) = firstStatus
        let counts = firstWire.withLock { $0 }?.snapshot ?? PublisherWireMeter.Counts()
        var events = [Self.stats(
            index: 1, url: firstURL, state: state, counts: counts, queue: fanOut.queues[0].snapshot,
            reconnects: max(0, connections - 1), stalls: nil, at: now)]
        for output in outputs {
            let link = output.link
            events.append(Self.stats(
                index: output.index, url: output.url, state: stateText(output), counts: output.wire.snapshot, queue: output.queue.snapshot,
                reconnects: link.reconnects, stalls: link.stalls, at: now))
        }
        return events
    }

    private static func stats(
        index: Int, url: StreamURL, state: String, counts: PublisherWireMeter.Counts, queue: PacketQueue.Snapshot, reconnects: Int,
        stalls: Int?, at now: SessionTime
    ) -> OnAirEvent {
        var details: [String: JSONValue] = [
            "output": .integer(Int64(index)), "url": .string(url.redacted), "state": .string(state),
            "bytesSent": .integer(Int64(clamping: counts.bytesWritten)), "framesSent": .integer(Int64(clamping: counts.videoFramesWritten)),
            "queueDepth": .integer(Int64(queue.depth)), "queueBytes": .integer(Int64(queue.bytes)),
            "droppedVideo": .integer(Int64(queue.videoPacketsDropped)), "droppedAudio": .integer(Int64(queue.audioPacketsDropped)),
            "congestionEvents": .integer(Int64(queue.congestionEvents)), "reconnects": .integer(Int64(reconnects)),
        ]
        if let stalls { details["stalls"] = .integer(Int64(stalls)) }
        return OnAirEvent(time: now, side: .publisher, .reported(kind: "outputStats", details: details))
    }
}
