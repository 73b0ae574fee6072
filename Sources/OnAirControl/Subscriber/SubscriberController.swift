import OnAirCore
import OnAirMedia
import OnAirNet
import OnAirLink

/// Owns a `SubscriberSession` and performs what it decides with the real RTMP player and decoder.
///
/// Like `PublisherController`, it is confined to its front end's loop; player events and timers come
/// back through `post`, except the current play's media packets, which its `SubscriberMediaPath` hands from
/// the player's task straight to the decoder (docs/subscriber-media-path.md). It also runs the no-media watchdog (DESIGN §1.3, interop NOTES: a stalled
/// publisher makes nginx-rtmp send nothing at all), reported to the session as `mediaStalled`.
public final class SubscriberController {
    public private(set) var session: SubscriberSession
    public let url: StreamURL
    /// Made at the first track; each track's decoder inside is rebuilt only when its configuration changes.
    public private(set) var decoder: DecoderThread? {
        didSet { media.setDecoder(decoder) }
    }
    /// The way packets go to the decoder off the loop, and the facts they teach (bitrate, gaps, freshness).
    let media: SubscriberMediaPath
    /// Counts of decoders already replaced, so totals survive a new codec configuration.
    private var retiredCounters = PacketDecoder.Counters()
    /// `decoderCounters` when the current play (or the publisher's current session on it) began:
    /// `framesDecoded` counts that only, so frames from before an interruption never make a scenario's
    /// `framesDecoded above 0` hold.
    public private(set) var countersAtPlay = PacketDecoder.Counters()
    private let previewSize: (width: Int, height: Int)
    public var meter: RateMeter { media.withFacts { $0.meter } }
    /// Time without video, for the report and `expect subscriber gap below …`.
    public var videoGaps: VideoGapMeter { media.withFacts { $0.videoGaps } }
    public let clock: SessionClock
    let rtmp: RTMPClient.Configuration
    let post: @Sendable (SubscriberInput) -> Void
    private let timers: TimerService<SubscriberTimer>
    private let stallTimeout: Duration
    /// When frame 0 of a file-made pattern was due (wall µs), for pictures whose markers count from there.
    private let streamEpochMicroseconds: UInt64?
    var player: RTMPPlayer?
    /// Where a server's ReconnectRequest sent the play; later plays go there too.
    var movedURL: StreamURL?
    /// The name of the current play, which a move plays again at the new server.
    var playingName: String?
    /// The connection whose reports count (``SubscriberInput/player(generation:_:handled:)``); every new connection
    /// takes a new number from `lastGeneration`, so a move's connection never shares one with a later play.
    var generation = 0 {
        didSet { syncDirect() }
    }
    var lastGeneration = 0
    /// A move in flight (``SubscriberController/beginMove(tcUrl:)``): the new connection plays while the old
    /// one keeps the picture.
    var pendingMove: SubscriberMove? {
        didSet { syncDirect() }
    }
    /// After a move's switch: audio the old connection already played, which the new one sends again.
    var audioPlayedThrough: Int64? {
        didSet { syncDirect() }
    }
    /// Replayed pictures the decoder's markers had found at the last tick.
    private var replayedPicturesSeen = 0
    /// What the stream announced (metadata, codec configurations) since the front end last took them.
    private var notices: [OnAirEvent.Kind] = []
    /// Decoder problems (refused configurations) already turned into notices.
    private var decoderProblemsReported = 0
    private static let maxNotices = 64
    /// Shows `warning` and `notice` lines on the console's dashboard; headless takes them as events.
    public var showNotice: ((String) -> Void)?
    /// The demo subscriber's own link stage ("its own phone"), nil elsewhere.
    public var link: LinkImpairment?

    public init(
        session: SubscriberSession,
        url: StreamURL,
        clock: SessionClock,
        stallTimeout: Duration = .seconds(3),
        previewWidth: Int = 128,
        previewHeight: Int = 72,
        rtmp: RTMPClient.Configuration = .init(),
        streamEpochMicroseconds: UInt64? = nil,
        post: @escaping @Sendable (SubscriberInput) -> Void
    ) {
        self.streamEpochMicroseconds = streamEpochMicroseconds
        self.session = session
        self.url = url
        self.clock = clock
        self.stallTimeout = stallTimeout
        self.rtmp = rtmp
        self.post = post
        media = SubscriberMediaPath(clock: clock)
        previewSize = (previewWidth, previewHeight)
        timers = TimerService { post(.event(.timerFired($0))) }
    }

    public var state: SubscriberAppState { session.state }

    /// The gap without video still open now, and the longest one so far (zero before the first frame).
    public var videoGapsNow: (current: Duration, longest: Duration) {
        let now = clock.now
        return (videoGaps.currentGap(at: now), videoGaps.longestGap(at: now))
    }

    /// Received bitrate, fps and the decoded preview, for the dashboard.
    public var telemetry: StreamTelemetry {
        let decoded = decoder?.snapshot
        var telemetry = StreamTelemetry(
            bitrate: meter.bitrate,
            bitrateHistory: meter.history,
            framesPerSecond: meter.framesPerSecond,
            // Packets lost only (the decoder's queue fell behind, video and audio): those skipped on purpose
            // by pauseRender are `skippedWhilePaused`.
            droppedFrames: (decoded?.videoPacketsDropped ?? 0) + (decoded?.audioPacketsDropped ?? 0),
            queueDepth: decoded?.backlog ?? 0,
            congestion: 0,
            preview: decoded?.preview,
            audioLevelDBFS: decoded?.audioLevel?.rmsDBFS,
            link: link?.state
        )
        telemetry.pictureAbsence = media.withFacts { $0.pictureAbsence }
        if let reading = glassToGlassNow, let p50 = reading.p50Milliseconds, let p99 = reading.p99Milliseconds, let frame = reading.lastFrameNumber {
            telemetry.glassToGlass = StreamTelemetry.GlassToGlass(p50Milliseconds: p50, p99Milliseconds: p99, frameNumber: frame)
        }
        return telemetry
    }

    /// Applies a link command the core's rule allowed (`CommandRouter`) to the subscriber's own stage;
    /// a `link` event, side subscriber, says what it did.
    public func apply(_ command: LinkCommand) {
        guard let state = link?.apply(command) else { return }
        notices.append(.link(state: state.description, command: command.text, abr: nil))
        showNotice?("sub \(command.text): link \(state.dashboardText)")
        apply(.linkChanged("\(command.text): link \(state.dashboardText)"), at: clock.now)
    }

    /// Synchronous, as the publisher's: a play or a stop happens on a task of its own (the old player is
    /// closed before the new one connects), so a link that takes nothing never holds the loop.
    public func handle(_ input: SubscriberInput) {
        let now = clock.now
        switch input {
        case .event(let event):
            apply(event, at: now)
        case .player(let from, let event, let handled):
            defer { handled?.done() }
            if from == pendingMove?.id { return moveReported(event, at: now) }
            guard from == generation, filterAroundMove(event) else { return }
            playerReported(event, at: now)
        case .media(let from, let verdict, let measured):
            guard from == generation else { return }
            measured.map(announce)
            if let verdict { apply(verdict == .live ? .mediaResumed : .mediaReplayed, at: now) }
        case .playFailed(let from, let reason):
            if from == pendingMove?.id { return movePlayFailed(reason) }
            guard from == generation else { return }
            player = nil
            apply(.playFailed(reason: reason), at: now)
        case .tick:
            let stalled = media.withFacts { facts in
                facts.meter.sample(at: now)
                guard facts.flowing != nil, let last = facts.lastMedia, now.since(last) >= stallTimeout else { return false }
                facts.flowing = nil
                return true
            }
            collectDecoderProblems()
            // The console never takes notices (it shows them through `showNotice`): keep only recent ones.
            if notices.count > Self.maxNotices { notices.removeFirst(notices.count - Self.maxNotices) }
            demoteOnReplayedMarkers(at: now)
            if stalled {
                decoder?.drain()
                apply(.mediaStalled, at: now)
            }
        }
    }

    /// Hands over what the stream announced since the last call (for headless `track`/`metadata` events).
    public func takeNotices() -> [OnAirEvent.Kind] {
        collectDecoderProblems()
        defer { notices.removeAll() }
        return notices
    }

    public func shutdown() async {
        timers.cancelAll()
        cancelMove()
        generation = newGeneration()
        let last = player
        player = nil
        await last?.stop()
        link?.stop()
        if let old = decoder {
            old.stop()
            retiredCounters = retiredCounters.adding(old.snapshot.counters)
        }
        decoder = nil
        let probe = media.withFacts { facts in
            defer { facts.frameRateProbe = nil }
            return facts.frameRateProbe
        }
        if let probe { announce(probe.finish()) }
    }

    private func apply(_ event: SubscriberEvent, at now: SessionTime) {
        let actions = session.handle(event, at: now)
        for action in actions {
            perform(action)
        }
    }

    func playerReported(_ event: RTMPPlayer.Event, at now: SessionTime) {
        switch event {
        case .status:
            if let code = event.playStatus {
                // A new publish session on the same play: `framesDecoded` counts its frames only.
                if code == .publishNotify { countersAtPlay = decoderCounters }
                // A publish began or ended: the next one's timestamps start afresh.
                if code == .publishNotify || code == .unpublishNotify {
                    media.withFacts { $0.newPublishSession() }
                    audioPlayedThrough = nil
                }
                if code == .unpublishNotify || code == .stop {
                    media.withFacts { $0.flowing = nil }
                    decoder?.drain()
                }
                apply(.status(code), at: now)
            }
        case .message(let handler, let arguments):
            apply(.message(handler: handler, parameter: arguments.first?.stringValue ?? ""), at: now)
        case .videoTrack(let track):
            decoderForTracks()?.configure(video: track)
            // Without onMetaData the rate is measured from the first second of frame timestamps.
            if track.framesPerSecond > 0 { announce(track) } else { media.withFacts { $0.frameRateProbe = FrameRateProbe(track: track) } }
        case .audioTrack(let track):
            decoderForTracks()?.configure(audio: track)
            notices.append(.reported(kind: "audioTrack", details: [
                "codec": .string(track.codec.name),
                "sampleRate": .integer(Int64(track.sampleRate)), "channels": .integer(Int64(track.channels)),
            ]))
        case .notice(let text):
            report(.notice(text))
        case .warning(let text):
            report(.warning(text, dropped: nil))
        case .metadata(let metadata):
            notices.append(.reported(kind: "metadata", details: metadata.mapValues(\.json)))
            media.withFacts { $0.metadata(announcesVideo: metadata["videocodecid"] != nil || metadata["width"] != nil) }
        case .packet(let packet):
            mediaPacket(packet, at: now)
        case .undecodable(let kind, let bytes, let timestamp):
            media.withFacts { $0.undecodable(kind: kind, bytes: bytes, timestamp: timestamp) }
        case .closed(let error?):
            // The old connection went before the new one brought media: the new one is the play now.
            if let move = pendingMove {
                pendingMove = nil
                return switchTo(move, at: now)
            }
            player = nil
            media.withFacts { $0.flowing = nil }
            decoder?.drain()
            apply(.connectionLost(reason: error.description), at: now)
        case .closed(nil), .streamBegin, .streamEOF, .streamDry:
            break
        case .reconnectRequest(let tcUrl, _):
            // Enhanced RTMP v2: follow the server, to its tcUrl or back to itself, make before break.
            beginMove(tcUrl: tcUrl)
        }
    }

    private func perform(_ action: SubscriberAction) {
        switch action {
        case .play(let name):
            play(name)
        case .stop:
            cancelMove()
            generation = newGeneration()
            media.withFacts { $0.flowing = nil }
            decoder?.drain()
            let stopping = player
            player = nil
            if let stopping { Task { await stopping.stop() } }
        case .pauseRender:
            decoder?.setRenderPaused(true)
        case .resumeRender:
            decoder?.setRenderPaused(false)
        case .scheduleTimer(let id, let delay):
            timers.schedule(id, after: delay)
        case .cancelTimer(let id):
            timers.cancel(id)
        }
    }

    /// One media packet that came through the loop (around a move; otherwise they go straight to the
    /// decoder, ``SubscriberMediaPath``): the same facts, then the decoder, then the session hears a new verdict.
    private func mediaPacket(_ packet: EncodedPacket, at now: SessionTime) {
        let news = media.withFacts { $0.packet(packet, at: now) }
        decoder?.submit(packet)
        news.measuredTrack.map(announce)
        if let verdict = news.verdict { apply(verdict == .live ? .mediaResumed : .mediaReplayed, at: now) }
    }

    /// The marker's word over the timestamp's: pictures decoded since the last tick that were all captured
    /// before the newest one shown are replayed, whatever their timestamps said.
    private func demoteOnReplayedMarkers(at now: SessionTime) {
        guard let meter = decoder?.snapshot.glassToGlass else { return }
        let replayed = meter.replayedCount
        defer { replayedPicturesSeen = replayed }
        guard replayed > replayedPicturesSeen, meter.lastPictureWasReplayed else { return }
        let demoted = media.withFacts { facts in
            guard facts.flowing == .live else { return false }
            facts.flowing = .replayed
            return true
        }
        guard demoted else { return }
        apply(.mediaReplayed, at: now)
    }

    /// Decoder counts since the subscriber started, across decoder rebuilds.
    public var decoderCounters: PacketDecoder.Counters {
        retiredCounters.adding(decoder?.snapshot.counters ?? PacketDecoder.Counters())
    }

    /// The decoder thread, started at the first track; `nil` (with an error notice) if it cannot start. It lives
    /// as long as the controller, so the marker figures (glass-to-glass, frozen, skipped) span republishes: a
    /// republish is a new codec configuration, not a new picture history.
    private func decoderForTracks() -> DecoderThread? {
        if let decoder { return decoder }
        do {
            decoder = try DecoderThread(
                video: nil, audio: nil, previewWidth: previewSize.width, previewHeight: previewSize.height,
                glassToGlass: GlassToGlassMeter(streamEpochMicroseconds: streamEpochMicroseconds))
            // Whether video is decoded is the session's fact (`renderActive`), kept nowhere else.
            decoder?.setRenderPaused(!session.state.renderActive)
        } catch {
            notices.append(.log(.error, "cannot decode this stream: \(error)"))
        }
        return decoder
    }

    /// The `videoTrack` event, with the rate from metadata or measured from frames.
    private func announce(_ track: VideoTrackDescription) {
        notices.append(.reported(kind: "videoTrack", details: [
            "width": .integer(Int64(track.width)), "height": .integer(Int64(track.height)),
            "fps": .number((track.framesPerSecond * 100).rounded() / 100), "sps": .integer(Int64(track.sequenceParameterSets.count)),
        ]))
    }

    /// A `warning` (a peer broke the spec) or `notice` (a codec OnAir does not decode) line, as an event
    /// and on the dashboard.
    func report(_ event: OnAirEvent.Kind) {
        notices.append(event)
        if case .notice(let text) = event { showNotice?(text) }
        if case .warning(let text, _) = event { showNotice?(text) }
    }

    /// Turns configurations the decoder refused (a huge picture, a broken AAC configuration) into notices.
    private func collectDecoderProblems() {
        guard let problems = decoder?.snapshot.problems, problems.count > decoderProblemsReported else { return }
        for problem in problems[decoderProblemsReported...] { report(.notice(problem)) }
        decoderProblemsReported = problems.count
    }

    /// A new connection for every play, as the seed's `reconnect()` makes a new subscriber.
    private func play(_ name: String) {
        countersAtPlay = decoderCounters
        cancelMove()
        generation = newGeneration()
        let current = generation
        // Only media of this play may say PLAYING, or why it has no picture.
        media.withFacts {
            $0.flowing = nil
            $0.pictureAbsence = nil
        }
        let previous = player
        playingName = name
        var target = movedURL ?? url
        if name != url.bareStreamName { target.streamName = name }
        let player = RTMPPlayer(url: target, configuration: rtmp)
        self.player = player
        let post = post
        let media = media
        Task {
            // The old connection closes before the new one opens, as the seed's reconnect() does (a server's
            // ReconnectRequest is make before break instead: SubscriberController+Move).
            await previous?.stop()
            do {
                try await player.start()
            } catch {
                post(.playFailed(generation: current, reason: "\(error)"))
                return
            }
            await media.pump(player, generation: current, post: post)
        }
    }

    /// Packets skip the loop only for the current connection, with no move in flight and no duplicate
    /// audio to filter after one (those need the loop's look at every packet, in order).
    private func syncDirect() {
        media.setDirect(pendingMove == nil && audioPlayedThrough == nil ? generation : nil)
    }
}
