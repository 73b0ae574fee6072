import OnAirCore

/// An audio source that survives its device: while the microphone is lost — taken by the operator
/// (`mic-lost`) or failing (`ENODEV`, a suspend that does not resume) — it delivers silence at the source's
/// rate, so the audio track keeps its timestamps and A/V sync, and it reopens the device with a backoff of
/// 1 s growing to 5 s (`DeviceBackoff`). Every source is closed on a loss and opened anew on its return
/// (a tone starts on the clock again; a parked one would burst its backlog).
///
/// Why silence is inserted on return: the encoder stamps audio by counting samples, so the moments the
/// device was being reopened would otherwise be missing from the count and every later packet would be
/// stamped early — the A/V offset would grow by each reopen's length.
final class ResilientAudioSource: AudioSource {
    let format: AudioSourceFormat
    var overruns: Int { overrunsBefore + (inner?.overruns ?? 0) }

    private let open: () throws -> any AudioSource
    private let isDevice: Bool
    private let control: EngineControl
    private let pacing: Pacing
    private var inner: (any AudioSource)?
    private var silencing = false
    private var backoff = DeviceBackoff()
    private var retryAt: UInt64?
    private var overrunsBefore = 0
    /// When the sample after the last one delivered was due (monotonic), to find what a reopen missed.
    private var nextDue: UInt64?

    init(open: @escaping () throws -> any AudioSource, isDevice: Bool, control: EngineControl, pacing: Pacing) throws {
        let source = try open()
        self.open = open
        self.isDevice = isDevice
        self.control = control
        self.pacing = pacing
        format = source.format
        inner = source
    }

    func read(frames: Int) throws -> AudioChunk {
        let taken = control.microphoneTaken.load(ordering: .relaxed)
        if taken, inner != nil { lose(reason: "operator", retry: false) }
        if !taken, inner == nil, retryAt.map({ MonotonicClock.now() >= $0 }) ?? true { reopen() }
        if let source = inner {
            do {
                var chunk = try source.read(frames: frames)
                if silencing { fillGap(before: &chunk) }
                silencing = false
                nextDue = chunk.captureNanoseconds + duration(of: chunk.frameCount)
                return chunk
            } catch {
                // A WAV file truncated or deleted while it plays is lost like a device and opened again.
                lose(reason: "\(error)", retry: true)
            }
        }
        return try silence(frames: frames)
    }

    private func duration(of frames: Int) -> UInt64 { UInt64(Double(frames) * 1e9 / Double(format.sampleRate)) }

    /// Prepends the silence a reopen took, so the sample count stays on the clock.
    private func fillGap(before chunk: inout AudioChunk) {
        guard let due = nextDue, chunk.captureNanoseconds > due + duration(of: 256) else { return }
        let missing = Int(Double(chunk.captureNanoseconds - due) * Double(format.sampleRate) / 1e9)
        guard missing > 0, missing < format.sampleRate * 10 else { return }
        chunk.samples = [Int16](repeating: 0, count: missing * format.channels) + chunk.samples
        chunk.captureNanoseconds = due
    }

    private func lose(reason: String, retry: Bool) {
        overrunsBefore += inner?.overruns ?? 0
        inner = nil
        backoff.reset()
        retryAt = retry ? MonotonicClock.now() + UInt64(DeviceBackoff.first.wholeMilliseconds) * 1_000_000 : nil
        control.microphone.withLock { cell in
            cell.markLost(reason: reason, substitute: "silence", retryAt: retryAt)
        }
        control.deviceChanged()
    }

    private func reopen() {
        do {
            let source = try open()
            guard source.format == format else {
                throw MediaError.formatUnsupported("the microphone came back as \(source.format), the stream carries \(format)")
            }
            inner = source
        } catch {
            let wait = backoff.failed()
            let due = MonotonicClock.now() + UInt64(wait.wholeMilliseconds) * 1_000_000
            retryAt = due
            control.microphone.withLock { cell in cell.markReopenFailed(reason: "\(error)", retryAt: due) }
            control.deviceChanged()
            return
        }
        backoff.reset()
        retryAt = nil
        control.microphone.withLock { cell in
            cell.status.available = true
            cell.status.substitute = nil
            cell.retryAtNanoseconds = nil
        }
        control.deviceChanged()
    }

    /// One chunk of silence, following the last chunk on the clock: released when its last sample is due,
    /// and never skipped (a late thread catches up), so the sample count stays equal to the time.
    private func silence(frames: Int) throws -> AudioChunk {
        let capture = nextDue ?? MonotonicClock.now()
        nextDue = capture + duration(of: frames)
        silencing = true
        if pacing == .realTime, let due = nextDue { try MonotonicClock.sleep(until: due) }
        return AudioChunk(
            sampleRate: format.sampleRate, channels: format.channels,
            samples: [Int16](repeating: 0, count: frames * format.channels), captureNanoseconds: capture)
    }
}
