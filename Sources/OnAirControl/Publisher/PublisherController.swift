import OnAirCore
import OnAirMedia
import OnAirNet

/// Owns a `PublisherSession` and performs what it decides with the real engine and RTMP client.
///
/// It is confined to its front end's loop: the loop passes every `PublisherInput` to `handle(_:)`, which
/// applies it to the session and performs the returned actions in order. Work that finishes later (a
/// publish handshake, a lost connection, a timer) comes back into the loop through `post`, never by
/// touching the session from another task — so the session has exactly one writer.
public final class PublisherController {
    public private(set) var session: PublisherSession
    public let engine: MediaEngine
    public let url: StreamURL
    public let clock: SessionClock
    private let rtmp: RTMPClient.Configuration
    private let post: @Sendable (PublisherInput) -> Void
    private let timers: TimerService<PublisherTimer>
    private let pump = MediaPump()
    private var connection: RTMPPublisher?
    private var generation = 0
    /// Where a server's ReconnectRequest moved the broadcast; later connections go there too.
    private var movedURL: StreamURL?
    /// The connection a move is leaving, and when the move was asked for.
    private var moving: (old: RTMPPublisher?, target: StreamURL, since: SessionTime)?
    /// What the sockets took, across every connection of this publisher.
    public let wire = PublisherWireMeter()
    /// The dashboard's and `stats` events' publisher figures, from `wire`.
    public private(set) var wireRate = WireRateMeter()
    /// When the kernel reading last sampled into `wireRate`.
    private var lastAcknowledgedAt: SessionTime?
    /// Says in the event log why `dropped` rose (issue 28: drops at the start with no line saying why).
    private var dropNotice = FrameDropNotice()
    /// The devices as the last `device` events reported them (PublisherController+Devices.swift).
    var deviceWatch = DeviceEventWatch()
    /// The wire's measure (TCP_INFO of the publisher's connection), ABR, and the link stage when an
    /// impairment was asked for; nil only where a test builds a bare controller.
    public var network: PublishNetwork?
    /// Outputs 2…N of `onair publish URL URL …` and the fan-out that feeds every output its own queue; nil
    /// with one URL, where the pump reads the engine's queue as before (docs/multi-destination.md).
    public var outputs: OutputGroup?

    public init(
        session: PublisherSession,
        engine: MediaEngine,
        url: StreamURL,
        clock: SessionClock,
        rtmp: RTMPClient.Configuration = .init(),
        post: @escaping @Sendable (PublisherInput) -> Void
    ) {
        self.session = session
        self.engine = engine
        self.url = url
        self.clock = clock
        self.rtmp = rtmp
        self.post = post
        timers = TimerService { post(.event(.timerFired($0))) }
        engine.observeDevices { post(.devicesChanged) }
    }

    /// Starts the engine and its pump. The broadcast itself starts with `.control(.start(_))`.
    public func start() throws {
        try engine.start()
        if let outputs {
            outputs.attachFirst(wire: wire, probe: network?.probe)
            outputs.start(engine)
            pump.start(outputs.firstPackets, hold: network?.sendHold)
        } else {
            pump.start(engine.packets, hold: network?.sendHold)
        }
    }

    public var state: PublisherAppState { session.state }

    /// Bytes the socket accepted over the whole session, reconnects included (the summary's figure).
    public var bytesOnWire: Int { Int(clamping: wire.snapshot.bytesWritten) }

    /// Applies one input and performs what the session asks.
    /// Synchronous: nothing here waits for the network (connections open and close on tasks of their
    /// own, notices are queued), so a key is applied at once even while the link accepts nothing.
    public func handle(_ input: PublisherInput) {
        let event: PublisherEvent
        switch input {
        case .event(let value):
            event = value
        case .devicesChanged:
            return
        case .moveRequested(let from, let tcUrl):
            guard from == generation else { return }
            move(to: tcUrl)
            return
        case .moveFinished(let from, let failure):
            guard from == generation else { return }
            event = .network(finishMove(failure: failure))
        case .connection(let from, var value):
            guard from == generation else { return }
            // Through the stage the client only sees its loopback connection reset: the stage says why.
            if let failure = network?.stage?.targetFailure {
                switch value {
                case .publishFailed: value = .publishFailed(reason: failure)
                case .connectionLost: value = .connectionLost(reason: failure)
                case .publishStarted, .moveRequested, .moved, .linkChanged: break
                }
            }
            if case .publishStarted = value, let connection {
                pump.route(to: connection)
                engine.requestKeyframe()
            }
            event = .network(value)
        }
        let actions = session.handle(event, at: clock.now)
        for action in actions {
            perform(action)
        }
        followedByOutputs()
    }

    /// On the front end's tick: samples what the wire carried for the figures, and lets the session's
    /// send-stall watchdog look at it.
    ///
    /// With a network (every publish and demo) the bytes are what the server's TCP acknowledged, read from
    /// the kernel on the publisher's own connection: a write the kernel took may wait seconds in its buffers
    /// on a slow link, and counting it as sent showed more than the link carries (991 kbit/s through an
    /// 800 kbit/s cap). Frames are still counted as the socket takes them.
    public func tick() {
        let counts = wire.snapshot
        let now = clock.now
        var progress = WireProgress(bytesWritten: counts.bytesWritten, writePending: counts.writesPending > 0)
        if let network {
            let acknowledged = network.acknowledged
            progress = WireProgress(
                bytesWritten: acknowledged?.bytes ?? 0, writePending: counts.writesPending > 0 || network.heldBytes > 0)
            // Sampled at the kernel reading's own time, once per reading (see `PublishNetwork.acknowledged`).
            if let acknowledged, acknowledged.at != lastAcknowledgedAt {
                lastAcknowledgedAt = acknowledged.at
                wireRate.sample(bytes: acknowledged.bytes, frames: counts.videoFramesWritten, at: acknowledged.at)
            }
        } else {
            wireRate.sample(bytes: counts.bytesWritten, frames: counts.videoFramesWritten, at: now)
        }
        handle(.event(.wire(progress)))
        if let line = dropNotice.line(for: engine.drops, atMilliseconds: now.milliseconds) {
            handle(.event(.engine(line)))
        }
    }

    /// The publisher's figures: the wire's, with the encoder's own output beside them while a broadcast
    /// is under way (when nothing is being sent, an encoder figure beside the badge would only mislead).
    public func telemetry(history: [Int]? = nil, preview: PreviewImage? = nil) -> StreamTelemetry {
        let stats = engine.stats
        let broadcasting = session.connection.isBroadcasting
        var telemetry = StreamTelemetry(
            bitrate: wireRate.bitrate,
            bitrateHistory: history ?? wireRate.history,
            framesPerSecond: wireRate.framesPerSecond,
            droppedFrames: stats.drops.total,
            queueDepth: stats.output?.depth ?? 0,
            congestion: stats.congestion,
            preview: preview,
            encoderBitrate: broadcasting ? stats.bitrate1s : nil,
            encoderFramesPerSecond: broadcasting ? stats.encodedFramesPerSecond : nil,
            link: link,
            abrTarget: network?.abrTarget
        ).withDeviceAlert(engine.devices)
        telemetry.outputs = outputs?.rows ?? []
        return telemetry
    }

    /// The stage's state now, nil without a stage.
    public var link: LinkImpairmentState? { network?.stage?.state }

    /// Applies a link command (`w`, `W`, `k`, stdin `link-down`, …) the core's rule allowed
    /// (`CommandRouter`). A handoff resets the connection; the session sees it lost and reconnects on its
    /// own with the type its policy says.
    public func apply(_ command: LinkCommand) {
        guard let state = network?.apply(command) else { return }
        // Every link change is a line of the pane's event log, as keys and statuses are.
        handle(.event(.network(.linkChanged("\(command.text): link \(state.dashboardText)"))))
    }

    /// Ends the broadcast and the engine, as a quit does: unpublish in order, then stop capturing.
    public func shutdown() async {
        timers.cancelAll()
        pump.stop()
        generation += 1
        let last = connection
        connection = nil
        await last?.stop(drainingFor: linkTakesNothing ? .zero : RTMPPublisher.drainLimit)
        await outputs?.shutdown()
        network?.stop()
        engine.stop()
    }

    private func perform(_ action: PublisherAction) {
        switch action {
        case .pauseVideo(let paused) where engine.configuration.backgroundVideo == .slate && (!paused || state.lifecycle != .active):
            // Vonage: away from the foreground the camera is unavailable; the slate says so (docs/devices.md).
            engine.backgroundCamera(paused)
            engine.pauseVideo(false)
        case .pauseVideo(let paused):
            engine.pauseVideo(paused)
        case .pauseAudio(let paused):
            engine.pauseAudio(paused)
        case .requestKeyframe:
            engine.requestKeyframe()
        case .send(let handler, let parameter):
            // Queued on the connection, never awaited: the loop goes on while a congested link drains,
            // and a `stop` that follows (the seed's didBecomeActive sends publisherInterrupt, then stops)
            // goes out after the notice, in order (`RTMPPublisher.queue`).
            connection?.queue(handler: handler, parameter)
            outputs?.notify(handler: handler, parameter: parameter)
        case .publish(let name, let type):
            openConnection(publishing: name, type: type)
        case .stop, .dropConnection:
            closeConnection()
        case .abandonConnection:
            closeConnection(drainingFor: .zero)
        case .scheduleTimer(let id, let delay):
            timers.schedule(id, after: delay)
        case .cancelTimer(let id):
            timers.cancel(id)
        case .preview, .toast, .armTap, .disarmTap:
            // Display calls: the session keeps them in its state and never returns them.
            break
        }
    }

    /// A new connection for every publish, as the seeds' `republish()` makes a new `R5Connection`.
    private func openConnection(publishing name: String, type: PublishType) {
        closeConnection()
        generation += 1
        let current = generation
        // The session knows the stream by its bare name (it goes into `streamName=` notices, where a key
        // must never appear); the wire needs the full name with any `?key=` query.
        var target = movedURL ?? url
        if name != url.bareStreamName { target.streamName = name }
        let publisher = RTMPPublisher(url: target, configuration: rtmp, wire: wire, probe: network?.probe)
        connection = publisher
        moving = nil
        let post = post
        let video = engine.videoTrack
        let audio = engine.audioTrack
        Task {
            do {
                try await publisher.start(type: type, video: video, audio: audio)
            } catch {
                post(.connection(generation: current, .publishFailed(reason: "\(error)")))
                return
            }
            post(.connection(generation: current, .publishStarted))
            await followPublisher(publisher, generation: current, post: post)
        }
    }

    /// A server's ReconnectRequest (Enhanced RTMP v2) while live: make before break. The old connection
    /// keeps the media while a new one connects and publishes at `tcUrl` (the same server when nil) with
    /// the type that continues this broadcast; `finishMove` then sends media to the new one from the next
    /// keyframe and leaves the old one.
    private func move(to tcUrl: String?) {
        guard moving == nil, let old = connection, case .live = session.connection else { return }
        var target = old.url
        if let tcUrl, let moved = try? StreamURL("\(tcUrl)/\(old.url.streamName)") { target = moved }
        moving = (old, target, clock.now)
        handle(.event(.network(.moveRequested(target: target.redacted))))
        generation += 1
        let current = generation
        let next = RTMPPublisher(url: target, configuration: rtmp, wire: wire)
        connection = next
        let post = post
        let type = session.continuingType
        let video = engine.videoTrack
        let audio = engine.audioTrack
        Task {
            do {
                try await next.start(type: type, video: video, audio: audio)
            } catch {
                post(.moveFinished(generation: current, failure: "\(error)"))
                return
            }
            post(.moveFinished(generation: current, failure: nil))
            await followPublisher(next, generation: current, post: post)
        }
    }

    /// The new connection of a move publishes (media goes there from the next keyframe, the old one is
    /// left) or could not (both are dropped and the session reconnects with its backoff).
    private func finishMove(failure: String?) -> PublisherNetworkEvent {
        guard let moving else { return .connectionLost(reason: failure ?? "move without a request") }
        self.moving = nil
        if let failure {
            let stale = connection
            connection = moving.old
            closeConnection(drainingFor: .zero)
            if let stale { Task { await stale.stop(drainingFor: .zero) } }
            return .connectionLost(reason: "the server asked to reconnect to \(moving.target.redacted), which failed: \(failure)")
        }
        movedURL = moving.target
        if let next = connection { pump.route(to: next) }
        engine.requestKeyframe()
        if let old = moving.old { Task { await old.stop(drainingFor: RTMPPublisher.drainLimit) } }
        return .moved(target: moving.target.redacted, milliseconds: (clock.now.milliseconds - moving.since.milliseconds))
    }

    private func closeConnection(drainingFor limit: Duration = RTMPPublisher.drainLimit) {
        pump.route(to: nil)
        generation += 1
        guard let closing = connection else { return }
        connection = nil
        Task { await closing.stop(drainingFor: limit) }
    }

    /// Whether nothing queued could reach the server now: the stage's link is down, or the socket took
    /// nothing for `--send-timeout` (STALLED). A stop then closes at once instead of waiting out the
    /// drain limit (a quit over a dead link would otherwise take 3 s longer).
    private var linkTakesNothing: Bool {
        network?.stage?.state.isUp == false || session.connection.sendStall != nil
    }
}

/// Reports what a live connection says to its controller's loop: its loss, and a server's request to move.
private func followPublisher(_ publisher: RTMPPublisher, generation: Int, post: @escaping @Sendable (PublisherInput) -> Void) async {
    for await event in publisher.events {
        switch event {
        case .closed(let error?): post(.connection(generation: generation, .connectionLost(reason: error.description)))
        case .reconnectRequest(let tcUrl, _): post(.moveRequested(generation: generation, tcUrl: tcUrl))
        default: break
        }
    }
}
