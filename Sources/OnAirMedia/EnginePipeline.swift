import OnAirCore

/// What the video capture thread reports once its source is open.
struct VideoOpened: Sendable {
    var requested: VideoSourceFormat
    var granted: VideoSourceFormat
}

/// What the audio thread reports once its source and encoder are open.
struct AudioOpened: Sendable {
    var track: AudioTrackDescription
    var format: AudioSourceFormat
}

/// The bodies of the engine's three threads. Each creates its C-owning objects on itself, reports, loops
/// until `stopping`, and records a fatal error in the stats instead of crashing the app.
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
        case .testPattern:
            return try TestPatternSource(
                width: configuration.width, height: configuration.height,
                framesPerSecond: configuration.framesPerSecond, pacing: configuration.pacing)
        case let .y4mFile(path):
            return try Y4MFileSource(path: path, pacing: configuration.pacing)
        case let .camera(device):
            return try V4L2Camera(
                device: device, width: configuration.width, height: configuration.height,
                framesPerSecond: configuration.framesPerSecond)
        }
    }

    func makeAudioSource(_ spec: AudioSourceSpec) throws -> any AudioSource {
        switch spec {
        case let .tone(frequency):
            return try ToneSource(
                frequency: frequency, sampleRate: configuration.audioSampleRate, channels: configuration.audioChannels,
                pacing: configuration.pacing)
        case let .wavFile(path):
            return try WAVFileSource(path: path, pacing: configuration.pacing)
        case let .alsa(device):
            return try ALSACapture(
                device: device, sampleRate: configuration.audioSampleRate, channels: configuration.audioChannels,
                configuration: configuration.alsaConfiguration)
        }
    }

    /// Capture thread: read (paced by the source), hand off to the encoder, refresh the preview.
    func runVideoCapture(_ ready: (Result<VideoOpened, any Error>) -> Void) {
        guard let spec = configuration.video else { return }
        let source: any VideoSource
        do {
            source = try makeVideoSource(spec)
        } catch {
            ready(.failure(error))
            return
        }
        ready(.success(VideoOpened(requested: source.requested, granted: source.granted)))
        let previewScaler = FrameScaler()
        let previewInterval = configuration.previewFramesPerSecond > 0 ? UInt64(1e9 / configuration.previewFramesPerSecond) : 0
        var lastPreview: UInt64 = 0
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
            let skipped = source.skippedFrames
            control.counters.withLock {
                $0.framesCaptured += 1
                $0.sourceLate += skipped - lastSkipped
            }
            lastSkipped = skipped
            handoff.put(frame, waiting: configuration.pacing == .unpaced)
            let now = MonotonicClock.now()
            if previewInterval > 0, now >= lastPreview + previewInterval {
                lastPreview = now
                do {
                    let image = try previewScaler.preview(of: frame, width: configuration.previewWidth, height: configuration.previewHeight)
                    control.preview.withLock { $0 = image }
                } catch {
                    control.fail(error, track: "preview")
                }
            }
        }
    }

    /// Encode thread: pause handling, forced keyframes, x264, stats, output queue.
    func runVideoEncode(_ ready: (Result<VideoTrackDescription, any Error>) -> Void) {
        let encoder: VideoEncoder
        do {
            encoder = try VideoEncoder(VideoEncoder.Settings(
                width: configuration.width, height: configuration.height, framesPerSecond: configuration.framesPerSecond,
                bitrate: configuration.videoBitrate, keyframeIntervalSeconds: configuration.keyframeIntervalSeconds,
                preset: configuration.x264Preset, tune: configuration.x264Tune, threads: configuration.resolvedEncoderThreads))
        } catch {
            ready(.failure(error))
            return
        }
        ready(.success(encoder.track))
        var resumingFromPause = false
        var lastMilliseconds: Int64 = -1
        while let frame = handoff.take() {
            if control.videoPaused.load(ordering: .relaxed) {
                // Red5 pauseVideo: nothing is sent; subscribers keep showing the last picture.
                control.counters.withLock { $0.framesSkippedWhilePaused += 1 }
                resumingFromPause = true
                continue
            }
            let requested = control.keyframeRequested.exchange(false, ordering: .relaxed)
            let force = requested || resumingFromPause
            resumingFromPause = false
            // Strictly increasing timestamps, even if two captures land in the same millisecond.
            let milliseconds = max(control.milliseconds(frame.captureNanoseconds), lastMilliseconds + 1)
            lastMilliseconds = milliseconds
            let started = MonotonicClock.now()
            let packets: [EncodedPacket]
            do {
                packets = try encoder.encode(frame, milliseconds: milliseconds, forceKeyframe: force)
            } catch {
                control.fail(error, track: "video")
                handoff.close() // the capture thread sees this and stops reading the device
                return
            }
            let elapsed = MonotonicClock.now() - started
            for packet in packets {
                control.meter.withLock { $0.record(.video, bytes: packet.payload.count, encodeNanoseconds: elapsed) }
                control.counters.withLock {
                    $0.framesEncoded += 1
                    if packet.isKeyframe { $0.keyframesEncoded += 1 }
                }
                queue.push(packet)
            }
        }
    }

    /// Audio thread: capture one AAC frame's worth, silence it if paused, encode, queue.
    func runAudio(_ ready: (Result<AudioOpened, any Error>) -> Void) {
        guard let spec = configuration.audio else { return }
        let source: any AudioSource
        let encoder: AudioEncoder
        do {
            source = try makeAudioSource(spec)
            encoder = try AudioEncoder(
                sampleRate: source.format.sampleRate, channels: source.format.channels,
                bitrate: configuration.audioBitrate, originNanoseconds: control.originNanoseconds)
        } catch {
            ready(.failure(error))
            return
        }
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
