import OnAirCore

/// What the video capture thread reports once its source is open.
struct VideoOpened: Sendable {
    var requested: VideoSourceFormat
    var granted: VideoSourceFormat
}

/// What the single video thread of a file or pattern reports once its source and encoder are open.
struct VideoStarted: Sendable {
    var track: VideoTrackDescription
    var opened: VideoOpened
}

/// What the audio thread reports once its source and encoder are open.
struct AudioOpened: Sendable {
    var track: AudioTrackDescription
    var format: AudioSourceFormat
}

/// The bodies of the engine's threads: audio, and video on one thread (files, pattern) or two (camera; see
/// `runVideoInline`). Each creates its C-owning objects on itself, reports, loops until `stopping`, and
/// records a fatal error in the stats instead of crashing the app.
///
/// A value holding only the shared, Sendable parts: the threads never retain the `MediaEngine` itself, so an
/// engine the app forgets to stop is still stopped (and its threads joined) by its `deinit`.
struct EnginePipeline: Sendable {
    let configuration: MediaEngineConfiguration
    let control: EngineControl
    let handoff: FrameHandoff
    let queue: PacketQueue

    /// The audio chunk size: one AAC frame, so each read yields one packet with no extra buffering delay.
    static let audioChunkFrames = 1024

    func makeVideoSource(_ spec: VideoSourceSpec) throws -> any VideoSource {
        switch spec {
        case .testPattern, .grainyTestPattern:
            return try TestPatternSource(
                width: configuration.width, height: configuration.height,
                framesPerSecond: configuration.framesPerSecond, grain: spec == .grainyTestPattern, pacing: configuration.pacing)
        case let .y4mFile(path):
            return try Y4MFileSource(path: path, pacing: configuration.pacing)
        case let .camera(device):
            return try V4L2Camera(
                device: device, width: configuration.width, height: configuration.height,
                framesPerSecond: configuration.framesPerSecond)
        }
    }

    /// The source wrapped so that a lost device (or an operator's `camera-lost`) becomes a substitute
    /// picture and a reopen, never a gap (docs/devices.md).
    func makeResilientVideoSource(_ spec: VideoSourceSpec) throws -> any VideoSource {
        var isDevice = false
        if case .camera = spec { isDevice = true }
        return try ResilientVideoSource(
            open: { try makeVideoSource(spec) }, isDevice: isDevice, fill: configuration.cameraLoss, control: control,
            width: configuration.width, height: configuration.height, framesPerSecond: configuration.framesPerSecond,
            pacing: configuration.pacing)
    }

    /// The source wrapped so that a lost microphone (or `mic-lost`) becomes silence and a reopen.
    func makeResilientAudioSource(_ spec: AudioSourceSpec) throws -> any AudioSource {
        var isDevice = false
        if case .alsa = spec { isDevice = true }
        return try ResilientAudioSource(open: { try makeAudioSource(spec) }, isDevice: isDevice, control: control, pacing: configuration.pacing)
    }

    func makeAudioSource(_ spec: AudioSourceSpec) throws -> any AudioSource {
        switch spec {
        case let .tone(frequency):
            return try ToneSource(
                frequency: frequency, sampleRate: configuration.audioSampleRate, channels: configuration.audioChannels,
                pacing: configuration.pacing, marksSeconds: configuration.pacing == .realTime)
        case let .wavFile(path):
            return try WAVFileSource(path: path, pacing: configuration.pacing)
        case let .alsa(device):
            return try ALSACapture(
                device: device, sampleRate: configuration.audioSampleRate, channels: configuration.audioChannels,
                configuration: configuration.alsaConfiguration)
        }
    }

    func makeVideoEncoder() throws -> VideoEncoder {
        try VideoEncoder(VideoEncoder.Settings(
            width: configuration.width, height: configuration.height, framesPerSecond: configuration.framesPerSecond,
            bitrate: configuration.videoBitrate, keyframeIntervalSeconds: configuration.keyframeIntervalSeconds,
            preset: configuration.x264Preset, tune: configuration.x264Tune, threads: configuration.resolvedEncoderThreads))
    }

    /// Counts one read: the frame itself and the ticks the source skipped before it.
    private func countCaptured(_ source: any VideoSource, lastSkipped: inout Int) {
        let skipped = source.skippedFrames
        control.counters.withLock {
            $0.framesCaptured += 1
            $0.sourceLate += skipped - lastSkipped
        }
        lastSkipped = skipped
    }

    /// Opens a thread's C-owning objects on the thread itself; a failure is reported to the starter and ends
    /// the thread (nil).
    private func open<Opened, Report>(_ ready: (Result<Report, any Error>) -> Void, _ body: () throws -> Opened) -> Opened? {
        do {
            return try body()
        } catch {
            ready(.failure(error))
            return nil
        }
    }

    /// Camera capture thread: read (paced by the driver), hand off to the encoder, refresh the preview.
    func runVideoCapture(_ ready: (Result<VideoOpened, any Error>) -> Void) {
        guard let spec = configuration.video, let source = open(ready, { try makeResilientVideoSource(spec) }) else { return }
        ready(.success(VideoOpened(requested: source.requested, granted: source.granted)))
        var preview = PreviewRefresher(configuration: configuration, control: control)
        var lastSkipped = 0
        defer { handoff.close() }
        while !control.stopping.load(ordering: .relaxed), !handoff.isClosed {
            let frame: VideoFrame
            do {
                frame = try source.read()
            } catch {
                control.fail(error, track: "video")
                return
            }
            countCaptured(source, lastSkipped: &lastSkipped)
            handoff.put(frame, waiting: configuration.pacing == .unpaced)
            preview.offer(frame)
        }
    }

    /// Camera encode thread: takes the capture thread's frames and encodes them. When the camera delivers
    /// nothing for a frame interval and a bit (it stopped, or its driver is stuck in a poll that will time
    /// out), the last picture is encoded again with the time now — Moblin's gap filler — so the subscriber
    /// never waits on a gap while the capture thread finds out whether the device is gone.
    func runVideoEncode(_ ready: (Result<VideoTrackDescription, any Error>) -> Void) {
        guard var stage = open(ready, { VideoEncodeStage(encoder: try makeVideoEncoder(), control: control, queue: queue) }) else {
            return
        }
        ready(.success(stage.encoder.track))
        let fillAfter = EnginePipeline.gapFillNanoseconds(framesPerSecond: configuration.framesPerSecond)
        var last: VideoFrame?
        while true {
            var frame: VideoFrame
            switch configuration.pacing == .realTime && last != nil ? handoff.take(within: fillAfter) : handoff.take().map(FrameHandoff.Taken.frame) ?? .closed {
            case .frame(let taken):
                frame = taken
                last = taken
            case .late:
                guard var filler = last else { continue }
                filler.captureNanoseconds = MonotonicClock.now()
                control.counters.withLock { $0.framesFilled += 1 }
                frame = filler
                last = filler
            case .closed:
                return
            }
            do {
                try stage.process(frame)
            } catch {
                control.fail(error, track: "video")
                handoff.close() // the capture thread sees this and stops reading the device
                return
            }
        }
    }

    /// How long the encode thread waits for a camera frame before filling: a frame interval and 15 ms, at
    /// least 50 ms (Moblin's gap filler), so a camera's own jitter never triggers it.
    static func gapFillNanoseconds(framesPerSecond: Double) -> UInt64 {
        UInt64(max(50_000_000, 1e9 / max(framesPerSecond, 1) + 15_000_000))
    }

    /// File and pattern thread: waits for the source's clock, then encodes the picture on the same thread.
    ///
    /// Why one thread here and two for a camera: a camera must be read on time or its driver drops frames
    /// unreported, so its reader never waits for x264. A clock-paced source loses nothing when the reader is
    /// late (its pacer skips the missed ticks and counts them as `sourceLate`), and reading in place saves a
    /// thread wake-up per frame and moves no 1.4 MB picture between cores: the benchmark's cost is lower.
    func runVideoInline(_ ready: (Result<VideoStarted, any Error>) -> Void) {
        guard let spec = configuration.video,
            let (source, encoder) = open(ready, { (try makeResilientVideoSource(spec), try makeVideoEncoder()) })
        else { return }
        var stage = VideoEncodeStage(encoder: encoder, control: control, queue: queue)
        ready(.success(VideoStarted(
            track: stage.encoder.track, opened: VideoOpened(requested: source.requested, granted: source.granted))))
        var preview = PreviewRefresher(configuration: configuration, control: control)
        var lastSkipped = 0
        while !control.stopping.load(ordering: .relaxed) {
            do {
                let frame = try source.read()
                countCaptured(source, lastSkipped: &lastSkipped)
                preview.offer(frame)
                try stage.process(frame)
            } catch {
                control.fail(error, track: "video")
                return
            }
        }
    }

    /// Audio thread: capture one AAC frame's worth, silence it if paused, encode, queue.
    func runAudio(_ ready: (Result<AudioOpened, any Error>) -> Void) {
        guard let spec = configuration.audio,
            let (source, encoder) = open(ready, { () throws -> (any AudioSource, AudioEncoder) in
                let source = try makeResilientAudioSource(spec)
                let encoder = try AudioEncoder(
                    sampleRate: source.format.sampleRate, channels: source.format.channels,
                    bitrate: configuration.audioBitrate, originNanoseconds: control.originNanoseconds)
                return (source, encoder)
            })
        else { return }
        ready(.success(AudioOpened(track: encoder.track, format: source.format)))
        while !control.stopping.load(ordering: .relaxed) {
            do {
                let chunk = try source.read(frames: EnginePipeline.audioChunkFrames)
                let muted = control.audioPaused.load(ordering: .relaxed)
                let packets = try encoder.encode(chunk, muted: muted)
                let overruns = source.overruns
                control.counters.withLock {
                    $0.audioPacketsEncoded += packets.count
                    $0.audioOverruns = overruns
                }
                for packet in packets {
                    control.meter.withLock { $0.record(.audio, bytes: packet.payload.count) }
                    queue.push(packet)
                }
            } catch {
                control.fail(error, track: "audio")
                return
            }
        }
    }
}
