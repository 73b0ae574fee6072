import OnAirCore
import Synchronization

/// Capture → encode → bounded output queue, for one broadcast.
///
/// ```swift
/// let engine = try MediaEngine(configuration)
/// try engine.start()                      // opens devices and encoders; tracks are known from here on
/// for await batch in engine.packets.batches { try await publisher.send(batch) }
/// ```
/// Threads: a camera's capture and its encode, or one thread that reads and encodes a file or the pattern,
/// and audio (capture + AAC, ~0.3 ms per frame), each on its own Foundation thread; nothing blocks Swift's
/// cooperative pool. Every method here is thread-safe and non-blocking except `start` (waits for devices to
/// open) and `stop` (waits for the threads to end).
/// One run per engine: after `stop`, make a new engine. `pauseVideo`/`pauseAudio` follow Red5's publisher:
/// paused video sends nothing (players keep the last picture) and resumes with a keyframe; paused audio
/// keeps sending encoded silence so timestamps keep flowing.
public final class MediaEngine: Sendable {
    public let configuration: MediaEngineConfiguration
    /// The encoded packets, in encode order per track; one consumer.
    public let packets: PacketStream

    let queue: PacketQueue
    let handoff = FrameHandoff()
    let control: EngineControl
    private let run = Mutex(RunState())

    private struct RunState: Sendable {
        var phase = Phase.idle
        var workers: [WorkerThread] = []
        var videoTrack: VideoTrackDescription?
        var audioTrack: AudioTrackDescription?
        var videoFormats: VideoOpened?
        var audioFormat: AudioSourceFormat?
    }

    private enum Phase: Sendable { case idle, running, stopped }

    public init(_ configuration: MediaEngineConfiguration) throws {
        try configuration.validate()
        self.configuration = configuration
        let control = EngineControl(originNanoseconds: MonotonicClock.now())
        self.control = control
        queue = PacketQueue(
            capacity: configuration.outputQueueCapacity, byteCapacity: configuration.resolvedOutputQueueBytes,
            audioMergeNanoseconds: UInt64(configuration.audioMergeMilliseconds) * 1_000_000,
            onCongestion: { control.keyframeRequested.store(true, ordering: .relaxed) })
        packets = PacketStream(queue: queue)
    }

    deinit { stop() }

    /// Opens the sources and encoders on their threads and starts capturing; throws the first failure
    /// (missing or busy device, unreadable file, unsupported format, missing codec) with nothing left running.
    public func start() throws {
        try run.withLock { state in
            guard state.phase == .idle else { throw MediaError.alreadyStarted }
            state.phase = .running
        }
        do {
            if configuration.video != nil { try startVideo() }
            if configuration.audio != nil { try startAudio() }
        } catch {
            stop()
            throw error
        }
    }

    /// Stops capture, waits for the threads, and ends `packets` once the consumer has drained them.
    public func stop() {
        let workers = run.withLock { state -> [WorkerThread] in
            guard state.phase == .running else { return [] }
            state.phase = .stopped
            defer { state.workers = [] }
            return state.workers
        }
        control.stopping.store(true, ordering: .relaxed)
        handoff.close()
        for worker in workers { worker.join() }
        queue.finish()
    }

    /// Red5 `pauseVideo`: no video packets while paused; the first frame after resuming is a keyframe.
    public func pauseVideo(_ paused: Bool = true) {
        control.videoPaused.store(paused, ordering: .relaxed)
    }

    /// Red5 `pauseAudio`: encoded silence while paused, so audio timestamps keep flowing.
    public func pauseAudio(_ paused: Bool = true) {
        control.audioPaused.store(paused, ordering: .relaxed)
    }

    /// `camera-lost` (true) / `camera-back` (false): the camera is taken away at the source — released if it
    /// is a device — and video carries the `--on-camera-loss` substitute until it is given back.
    public func takeCamera(_ taken: Bool) {
        control.cameraTaken.store(taken, ordering: .relaxed)
    }

    /// `--background-video slate`: the app went away (true) or came back (false); the camera is lost meanwhile.
    public func backgroundCamera(_ away: Bool) {
        control.cameraBackgrounded.store(away, ordering: .relaxed)
    }

    /// `mic-lost` (true) / `mic-back` (false): the microphone is closed and audio carries silence until then.
    public func takeMicrophone(_ taken: Bool) {
        control.microphoneTaken.store(taken, ordering: .relaxed)
    }

    /// Calls `observer` (on a capture thread) each time a device's status in `devices` changes: a loss, a
    /// failed reopen, a return. One observer; a later call replaces it.
    public func observeDevices(_ observer: @escaping @Sendable () -> Void) {
        control.deviceObserver.withLock { $0 = observer }
    }

    /// The devices `takeCamera`/`takeMicrophone` have taken away.
    public var devicesTaken: Set<CaptureDevice> {
        var taken: Set<CaptureDevice> = []
        if control.cameraTaken.load(ordering: .relaxed) { taken.insert(.camera) }
        if control.microphoneTaken.load(ordering: .relaxed) { taken.insert(.microphone) }
        return taken
    }

    /// The error that stopped a track ("video: …"), if one did; a device's loss is not one (see `devices`).
    public var trackFailure: String? { control.counters.withLock { $0.lastError } }

    /// How the camera and the microphone stand now (lost, why, what replaces them, when the next reopen is).
    public var devices: [DeviceStatus] {
        let now = MonotonicClock.now()
        return [control.camera.withLock { $0.snapshot(now: now) }, control.microphone.withLock { $0.snapshot(now: now) }]
    }

    public var isVideoPaused: Bool { control.videoPaused.load(ordering: .relaxed) }
    public var isAudioPaused: Bool { control.audioPaused.load(ordering: .relaxed) }

    /// The next encoded video frame will be an IDR (a new subscriber, a republish, a resumed foreground).
    public func requestKeyframe() {
        control.keyframeRequested.store(true, ordering: .relaxed)
    }

    /// The H.264 track (SPS/PPS): known once `start` returns, before any packet is consumed.
    public var videoTrack: VideoTrackDescription? { run.withLock { $0.videoTrack } }
    /// The AAC track (AudioSpecificConfig): known once `start` returns.
    public var audioTrack: AudioTrackDescription? { run.withLock { $0.audioTrack } }

    /// The latest captured picture, downscaled to the preview size, refreshed at most `previewFramesPerSecond`
    /// while it is read: reading it asks for the next refreshes, so the first read after a pause in
    /// reading may return nil or an older picture (``PreviewRefresher/demandNanoseconds``).
    public var preview: PreviewImage? {
        control.previewReadAt.store(MonotonicClock.now(), ordering: .relaxed)
        return control.preview.withLock { $0 }
    }

    /// What adaptive bitrate reads ten times a second: the output queue's bytes and congestion drops, and
    /// what the encoders produced over the last second. Not `stats`, which sorts four latency windows under
    /// the lock the encoders and the sender share.
    public var sendLoad: SendLoad {
        let (bytes, dropped) = queue.load
        var rates = MediaStats()
        control.meter.withLock { $0.fill(&rates) }
        return SendLoad(queuedBytes: bytes, congestionDrops: dropped, offeredBitsPerSecond: rates.bitrate1s)
    }

    /// See ``sendLoad``.
    public struct SendLoad: Sendable, Equatable {
        public var queuedBytes: Int
        /// Packets (video and audio) dropped because the link was slower than the encoders, since the start.
        public var congestionDrops: Int
        public var offeredBitsPerSecond: Int
    }

    /// A snapshot of rates, counters, drops, queue depths and latencies.
    public var stats: MediaStats {
        var stats = MediaStats()
        let runState = run.withLock { state in
            (state.phase == .running, state.videoFormats, state.audioFormat)
        }
        stats.isRunning = runState.0 && !control.stopping.load(ordering: .relaxed)
        stats.requestedVideo = runState.1?.requested
        stats.grantedVideo = runState.1?.granted
        stats.audioFormat = runState.2
        stats.videoSource = configuration.video?.description
        stats.audioSource = configuration.audio?.description
        stats.videoPaused = isVideoPaused
        stats.audioPaused = isAudioPaused
        control.meter.withLock { $0.fill(&stats) }
        let counters = control.counters.withLock { $0 }
        stats.framesCaptured = counters.framesCaptured
        stats.framesEncoded = counters.framesEncoded
        stats.keyframesEncoded = counters.keyframesEncoded
        stats.framesSkippedWhilePaused = counters.framesSkippedWhilePaused
        stats.framesFilled = counters.framesFilled
        stats.audioPacketsEncoded = counters.audioPacketsEncoded
        stats.lastError = counters.lastError
        let output = queue.snapshot
        stats.output = output
        stats.captureQueueDepth = handoff.depth
        stats.drops.sourceLate = counters.sourceLate
        stats.drops.encoderBusy = handoff.dropped
        stats.drops.congestionVideoPackets = output.videoPacketsDropped
        stats.drops.congestionAudioPackets = output.audioPacketsDropped
        stats.drops.audioOverruns = counters.audioOverruns
        return stats
    }

    // MARK: - Threads (bodies in EnginePipeline.swift)

    private var pipeline: EnginePipeline {
        EnginePipeline(configuration: configuration, control: control, handoff: handoff, queue: queue)
    }

    private func startVideo() throws {
        let pipeline = pipeline
        guard case .camera = configuration.video else {
            try startWorker("onair.video", pipeline.runVideoInline) { state, started in
                state.videoTrack = started.track
                state.videoFormats = started.opened
            }
            return
        }
        try startWorker("onair.video.encode", pipeline.runVideoEncode) { $0.videoTrack = $1 }
        try startWorker("onair.video.capture", pipeline.runVideoCapture) { $0.videoFormats = $1 }
    }

    private func startAudio() throws {
        try startWorker("onair.audio", pipeline.runAudio) { state, opened in
            state.audioTrack = opened.track
            state.audioFormat = opened.format
        }
    }

    /// Starts one thread, waits for its report, and keeps the worker and what it reported.
    private func startWorker<Info: Sendable>(
        _ name: String,
        _ body: @escaping @Sendable (_ ready: @Sendable (Result<Info, any Error>) -> Void) -> Void,
        record: (inout RunState, Info) -> Void
    ) throws {
        let (worker, info) = try WorkerThread.start(name: name, body)
        run.withLock { state in
            state.workers.append(worker)
            record(&state, info)
        }
    }
}
