import OnAirCore

/// One picture through the encoder: Red5 pause handling, forced keyframes, x264, stats, output queue.
///
/// Shared by both video threading shapes (see `EnginePipeline`): the encode thread fed by a camera's capture
/// thread, and the single thread that reads a clock-paced file or pattern and encodes it in place.
struct VideoEncodeStage {
    let encoder: VideoEncoder
    let control: EngineControl
    let queue: PacketQueue
    private var resumingFromPause = false
    private var lastMilliseconds: Int64 = -1
    private var decimator: FrameDecimator?
    private var videoOff = false

    init(encoder: VideoEncoder, control: EngineControl, queue: PacketQueue) {
        self.encoder = encoder
        self.control = control
        self.queue = queue
    }

    /// Encodes `frame` unless video is paused; throws only what the encoder reports (fatal for the track).
    mutating func process(_ frame: VideoFrame) throws {
        if control.videoPaused.load(ordering: .relaxed) {
            // Red5 pauseVideo: nothing is sent; subscribers keep showing the last picture.
            control.counters.withLock { $0.framesSkippedWhilePaused += 1 }
            resumingFromPause = true
            return
        }
        applyPendingRate()
        if decimator?.admit() == false {
            encoder.skipFrame()
            // Audio-only (a rate of 0 fps) ends like a pause: the first picture after it is a keyframe.
            if videoOff { resumingFromPause = true }
            return
        }
        let requested = control.keyframeRequested.exchange(false, ordering: .relaxed)
        let force = requested || resumingFromPause
        resumingFromPause = false
        // Strictly increasing timestamps, even if two captures land in the same millisecond.
        let milliseconds = max(control.milliseconds(frame.captureNanoseconds), lastMilliseconds + 1)
        lastMilliseconds = milliseconds
        let started = MonotonicClock.now()
        let packets = try encoder.encode(frame, milliseconds: milliseconds, forceKeyframe: force)
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

    /// Takes the rate the app asked for (adaptive bitrate), if any, between two frames.
    private mutating func applyPendingRate() {
        guard let rate = control.pendingVideoRate.withLock({ pending in defer { pending = nil }; return pending }) else { return }
        encoder.reconfigure(bitrate: rate.bitrate)
        let source = encoder.settings.framesPerSecond
        videoOff = rate.framesPerSecond <= 0
        decimator = rate.framesPerSecond < source
            ? FrameDecimator(sourceFramesPerSecond: source, targetFramesPerSecond: rate.framesPerSecond) : nil
        control.appliedVideoRate.withLock { $0 = rate }
    }
}
