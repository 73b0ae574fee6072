import OnAirCore

/// A video source that survives its device: while the camera is lost — taken by the operator
/// (`camera-lost`) or failing (`ENODEV` from `VIDIOC_DQBUF`, no frame for 2 s) — it delivers a substitute
/// (`--on-camera-loss slate|freeze|black`) at the configured rate with live timestamps, so the video track
/// never has a gap, and it reopens the device with a backoff of 1 s growing to 5 s (`DeviceBackoff`).
/// A device that comes back with another size or format is simply another picture: the encoder scales it
/// into the same stream (docs/devices.md).
///
/// Read on the one capture thread, like any `VideoSource`.
final class ResilientVideoSource: VideoSource {
    let requested: VideoSourceFormat
    private(set) var granted: VideoSourceFormat
    var skippedFrames: Int { innerSkipped + substituteSkipped }

    private let open: () throws -> any VideoSource
    /// A real device, closed while the operator has it "taken"; a pattern or file is parked instead. A read
    /// error of either is a loss to recover from: a clip truncated or deleted while it plays gets the slate and
    /// reopens like a camera (a shorter clip plays on), where it used to end the video track without a word.
    private let isDevice: Bool
    private let fill: CameraLossFill
    private let control: EngineControl
    private let slate: CameraSlate
    private let framesPerSecond: Double
    private let pacing: Pacing
    private var inner: (any VideoSource)?
    /// A pattern or file kept open and read while the operator has the camera "taken": its clock and numbers
    /// go on, its pictures are replaced.
    private var parked = false
    private var substitutePacer: RealTimePacer?
    /// The last real picture, kept only for `--on-camera-loss freeze` (the only fill that shows it): holding
    /// it otherwise made the reused buffer of a file or pattern shared, so each read copied 1.4 MB at 720p
    /// before writing (issue 31).
    private var lastFrame: VideoFrame?
    private var nextIndex = 0
    private var backoff = DeviceBackoff()
    private var retryAt: UInt64?
    private var innerSkipped = 0
    private var innerSkippedSeen = 0
    private var substituteSkipped = 0

    init(
        open: @escaping () throws -> any VideoSource, isDevice: Bool, fill: CameraLossFill, control: EngineControl,
        width: Int, height: Int, framesPerSecond: Double, pacing: Pacing
    ) throws {
        let source = try open()
        self.open = open
        self.isDevice = isDevice
        self.fill = fill
        self.control = control
        self.framesPerSecond = framesPerSecond
        self.pacing = pacing
        requested = source.requested
        granted = source.granted
        slate = CameraSlate(width: width, height: height, framesPerSecond: framesPerSecond)
        inner = source
        let format = source.granted.description
        control.camera.withLock { $0.status.format = format }
    }

    func read() throws -> VideoFrame {
        let taken = control.cameraTaken.load(ordering: .relaxed) || control.cameraBackgrounded.load(ordering: .relaxed)
        if taken, inner != nil, !parked { lose(reason: "operator", retry: false) }
        if !taken, inner == nil || parked, retryAt.map({ MonotonicClock.now() >= $0 }) ?? true { reopen() }
        if let source = inner {
            do {
                let frame = try source.read()
                innerSkipped += source.skippedFrames - innerSkippedSeen
                innerSkippedSeen = source.skippedFrames
                // A parked pattern or file keeps its own clock and numbers; only its picture is replaced.
                if parked { return substitute(index: frame.sequenceNumber, capture: frame.captureNanoseconds) }
                substitutePacer = nil
                if fill == .freeze { lastFrame = frame }
                nextIndex = frame.sequenceNumber + 1
                return frame
            } catch {
                lose(reason: "\(error)", retry: true)
            }
        }
        return try substituteOnOwnClock()
    }

    /// The track goes on without the device: close it and schedule the first reopen when it failed by itself;
    /// a pattern or file the operator took is parked instead, so its counter carries on.
    private func lose(reason: String, retry: Bool) {
        if isDevice || retry {
            inner = nil
            parked = false
        } else {
            parked = true
        }
        backoff.reset()
        retryAt = retry ? MonotonicClock.now() + UInt64(DeviceBackoff.first.wholeMilliseconds) * 1_000_000 : nil
        control.camera.withLock { cell in
            cell.markLost(reason: reason, substitute: fill.rawValue, retryAt: retryAt)
        }
        control.deviceChanged()
    }

    private func reopen() {
        if parked {
            parked = false
        } else {
            do {
                let source = try open()
                granted = source.granted
                inner = source
                innerSkippedSeen = 0
            } catch {
                let wait = backoff.failed()
                let due = MonotonicClock.now() + UInt64(wait.wholeMilliseconds) * 1_000_000
                retryAt = due
                control.camera.withLock { cell in cell.markReopenFailed(reason: "\(error)", retryAt: due) }
                control.deviceChanged()
                return
            }
        }
        backoff.reset()
        retryAt = nil
        control.keyframeRequested.store(true, ordering: .relaxed)
        let format = granted.description
        control.camera.withLock { cell in
            cell.status.format = format
            cell.status.available = true
            cell.status.substitute = nil
            cell.retryAtNanoseconds = nil
        }
        control.deviceChanged()
    }

    /// One substitute picture while the device is closed, on the source's own clock at the configured rate.
    private func substituteOnOwnClock() throws -> VideoFrame {
        if substitutePacer == nil { substitutePacer = RealTimePacer(pacing: pacing, intervalNanoseconds: 1e9 / framesPerSecond) }
        let tick = try substitutePacer!.next()
        substituteSkipped += tick.skipped
        nextIndex += tick.skipped
        defer { nextIndex += 1 }
        return substitute(index: nextIndex, capture: tick.time)
    }

    /// The slate, the last picture, or black, numbered `index` and stamped `capture`.
    private func substitute(index: Int, capture: UInt64) -> VideoFrame {
        switch fill {
        case .slate:
            return slate.render(frameIndex: index, captureNanoseconds: capture, wallMicroseconds: WallClock.microseconds(ofMonotonic: capture))
        case .freeze:
            if var frame = lastFrame {
                frame.captureNanoseconds = capture
                frame.sequenceNumber = index
                return frame
            }
            fallthrough
        case .black:
            return VideoFrame(width: slate.pattern.width, height: slate.pattern.height, captureNanoseconds: capture, sequenceNumber: index)
        }
    }
}
