import OnAirCore
import OnAirMedia
import OnAirNet
import Synchronization

/// One further destination of a broadcast (outputs 2 and on of `onair publish URL URL …`): its own RTMP
/// connection, fed from its own bounded queue by its own pump, with its own send-stall watchdog and
/// reconnect backoff (`OutputLink`), on a task of its own (docs/multi-destination.md).
///
/// Why its own task: everything this output waits for — a connect, a handshake to a stopped server, a
/// socket that takes nothing — waits here and nowhere else. The front end's loop only posts to it (`post`
/// never waits), so one output's trouble reaches neither the loop, nor the encoder, nor another output.
public final class BroadcastOutput: Sendable {
    /// What the output's task receives, one at a time.
    public enum Input: Sendable {
        case event(OutputLink.Event)
        /// What connection number `generation` reported; a report from a replaced connection is dropped.
        case connection(generation: Int, OutputLink.Event)
        /// A Red5-style notice the broadcast sends (`publisherBackground`, …), mirrored to this output.
        case notice(handler: String, parameter: String)
        /// Time to read the socket's counters for the watchdog.
        case sample
    }

    /// 1-based, as the operator names outputs.
    public let index: Int
    public let url: StreamURL
    /// What this output's sockets took, across its connections.
    public let wire = PublisherWireMeter()
    /// Reads TCP_INFO of this output's connection (ABR reads what its server acknowledged).
    public let probe = PublisherTCPProbe()
    /// This output's queue, filled by the fan-out.
    let queue: PacketQueue
    private let state: LinkCell
    private let inputs: AsyncStream<Input>.Continuation
    private let tasks = Mutex<[Task<Void, Never>]>([])
    private let finished = Mutex<Bool>(false)

    /// Starts the output's task, idle until the broadcast starts it; `events` receives its `output` events.
    public init(
        index: Int, url: StreamURL, packets: PacketStream, queue: PacketQueue, engine: MediaEngine, rtmp: RTMPClient.Configuration,
        link: OutputLink, clock: SessionClock, events: @escaping @Sendable (OnAirEvent) -> Void
    ) {
        self.index = index
        self.url = url
        self.queue = queue
        let state = LinkCell(link)
        self.state = state
        let (stream, continuation) = AsyncStream.makeStream(of: Input.self, bufferingPolicy: .unbounded)
        inputs = continuation
        let runner = OutputRunner(
            index: index, url: url, packets: packets, engine: engine, rtmp: rtmp, wire: wire, probe: probe, clock: clock,
            state: state, post: { continuation.yield($0) }, events: events)
        let loop = Task.detached {
            for await input in stream { runner.handle(input) }
            await runner.shutdown()
        }
        let sampler = Task.detached {
            while !Task.isCancelled {
                try? await Task.sleep(for: .milliseconds(250))
                continuation.yield(.sample)
            }
        }
        tasks.withLock { $0 = [loop, sampler] }
    }

    /// Hands `input` to the output's task; never waits.
    public func post(_ input: Input) {
        inputs.yield(input)
    }

    /// The output's phase and counters now.
    public var link: OutputLink { state.value.withLock { $0 } }

    /// Ends the output: unpublishes (briefly), closes, and waits for its task.
    public func shutdown() async {
        let first = finished.withLock { done in
            defer { done = true }
            return !done
        }
        let running = tasks.withLock { $0 }
        if first {
            running.last?.cancel()
            inputs.finish()
        }
        await running.first?.value
    }
}

/// The output's state and I/O, confined to the output's task.
private final class OutputRunner: @unchecked Sendable {
    // @unchecked: created before the task and then touched only by it (inputs arrive through one stream).
    let index: Int
    let url: StreamURL
    let engine: MediaEngine
    let rtmp: RTMPClient.Configuration
    let wire: PublisherWireMeter
    let probe: PublisherTCPProbe
    let clock: SessionClock
    let state: LinkCell
    let post: @Sendable (BroadcastOutput.Input) -> Void
    let events: @Sendable (OnAirEvent) -> Void
    let pump = MediaPump()
    var link: OutputLink
    var connection: RTMPPublisher?
    var generation = 0
    var timers: [OutputLink.Timer: Task<Void, Never>] = [:]

    init(
        index: Int, url: StreamURL, packets: PacketStream, engine: MediaEngine, rtmp: RTMPClient.Configuration, wire: PublisherWireMeter,
        probe: PublisherTCPProbe, clock: SessionClock, state: LinkCell, post: @escaping @Sendable (BroadcastOutput.Input) -> Void,
        events: @escaping @Sendable (OnAirEvent) -> Void
    ) {
        self.index = index
        self.url = url
        self.engine = engine
        self.rtmp = rtmp
        self.wire = wire
        self.probe = probe
        self.clock = clock
        self.state = state
        self.post = post
        self.events = events
        link = state.value.withLock { $0 }
        pump.start(packets)
    }

    func handle(_ input: BroadcastOutput.Input) {
        let event: OutputLink.Event
        switch input {
        case .event(let value):
            event = value
        case .connection(let from, let value):
            guard from == generation else { return }
            if case .published = value, let connection {
                pump.route(to: connection)
                engine.requestKeyframe()
            }
            event = value
        case .notice(let handler, let parameter):
            // The notice names the stream; this output's own name goes in its place.
            let own = parameter.hasPrefix("streamName=") ? "streamName=\(url.bareStreamName)" : parameter
            connection?.queue(handler: handler, own)
            return
        case .sample:
            let counts = wire.snapshot
            event = .wire(WireProgress(bytesWritten: counts.bytesWritten, writePending: counts.writesPending > 0))
        }
        let before = link.stateText
        let actions = link.handle(event, at: clock.now)
        state.value.withLock { $0 = link }
        for action in actions { perform(action) }
        if link.stateText != before, !actions.contains(where: { if case .report = $0 { true } else { false } }) {
            report(link.stateText.lowercased())
        }
    }

    func shutdown() async {
        for timer in timers.values { timer.cancel() }
        timers = [:]
        pump.stop()
        generation += 1
        let last = connection
        connection = nil
        await last?.stop(drainingFor: link.stall == nil ? .seconds(1) : .zero)
    }

    private func perform(_ action: OutputLink.Action) {
        switch action {
        case .connect(let type):
            open(type: type)
        case .disconnect(let draining):
            close(draining: draining)
        case .schedule(let timer, let delay):
            timers[timer]?.cancel()
            let post = post
            timers[timer] = Task {
                try? await Task.sleep(for: delay)
                if !Task.isCancelled { post(.event(.timerFired(timer))) }
            }
        case .cancel(let timer):
            timers.removeValue(forKey: timer)?.cancel()
        case .report(let text):
            report(text)
        }
    }

    /// The `output` event: which output, where (redacted), its state and what happened.
    private func report(_ text: String) {
        events(OnAirEvent(time: clock.now, side: .publisher, .reported(kind: "output", details: [
            "output": .integer(Int64(index)), "url": .string(url.redacted), "state": .string(link.stateText),
            "text": .string(Redaction.text(text, hiding: url.streamName)), "reconnects": .integer(Int64(link.reconnects)),
        ])))
    }

    /// A new connection for every publish, as the broadcast's first output makes one.
    private func open(type: PublishType) {
        close(draining: false)
        generation += 1
        let current = generation
        let publisher = RTMPPublisher(url: url, configuration: rtmp, wire: wire, probe: probe)
        connection = publisher
        let post = post
        let video = engine.videoTrack
        let audio = engine.audioTrack
        Task {
            do {
                try await publisher.start(type: type, video: video, audio: audio)
            } catch {
                post(.connection(generation: current, .publishFailed("\(error)")))
                return
            }
            post(.connection(generation: current, .published))
            for await event in publisher.events {
                if case .closed(let error?) = event { post(.connection(generation: current, .lost(error.description))) }
            }
        }
    }

    private func close(draining: Bool) {
        pump.route(to: nil)
        generation += 1
        guard let closing = connection else { return }
        connection = nil
        Task { await closing.stop(drainingFor: draining ? RTMPPublisher.drainLimit : .zero) }
    }
}

/// The output's phase and counters, written by its task and read by the dashboard and `outputStats`.
private final class LinkCell: Sendable {
    let value: Mutex<OutputLink>

    init(_ link: OutputLink) {
        value = Mutex(link)
    }
}
