import Dispatch
import OnAirCore
import Synchronization

/// The subscriber's decoder on its own thread: packets in without blocking, the latest preview and audio
/// level out as a value the dashboard pulls.
///
/// Why a thread and a bounded input: decoding is blocking C work that must stay off the cooperative pool,
/// and a subscriber that falls behind must not buffer without bound. Input goes through a `PacketQueue`
/// (drop video to the next keyframe), so a slow decoder skips to a fresh picture instead of lagging.
/// `renderPaused` is Red5's pauseRender/resumeRender (see `PacketDecoder`).
public final class DecoderThread: Sendable {
    /// What the dashboard shows.
    public struct Snapshot: Sendable, Equatable {
        public var preview: PreviewImage?
        public var previewTimestamp: Int64?
        public var audioLevel: PacketDecoder.AudioLevel?
        public var counters = PacketDecoder.Counters()
        public var renderPaused = false
        /// Packets waiting to be decoded, and video dropped because decoding fell behind.
        public var backlog = 0
        public var videoPacketsDropped = 0
        public var decodeErrors = 0
        public var lastError: String?
        /// Frame markers read from the decoded pictures (glass-to-glass latency, frozen time, skipped frames).
        public var glassToGlass = GlassToGlassMeter()
    }

    /// What the thread and the callers share; the thread holds this, not the `DecoderThread`, so `deinit` can stop it.
    private final class Shared: Sendable {
        let input: PacketQueue
        let wake = DispatchSemaphore(value: 0)
        let stopping = Atomic(false)
        let paused = Atomic(false)
        let output = Mutex(Snapshot())

        init(input: PacketQueue) { self.input = input }
    }

    private let shared: Shared
    private let worker = Mutex<WorkerThread?>(nil)

    /// Opens the decoders on a new thread; throws if a codec is missing or a track is unusable.
    public init(
        video: VideoTrackDescription?, audio: AudioTrackDescription?, previewWidth: Int = 64, previewHeight: Int = 36,
        backlog: Int = 90, glassToGlass: GlassToGlassMeter = GlassToGlassMeter()
    ) throws {
        let shared = Shared(input: PacketQueue(capacity: backlog, byteCapacity: 16 << 20))
        shared.output.withLock { $0.glassToGlass = glassToGlass }
        self.shared = shared
        let (thread, _) = try WorkerThread.start(name: "onair.decode") { (ready: @Sendable (Result<Bool, any Error>) -> Void) in
            let decoder: PacketDecoder
            do {
                decoder = try PacketDecoder(video: video, audio: audio, previewWidth: previewWidth, previewHeight: previewHeight)
            } catch {
                ready(.failure(error))
                return
            }
            ready(.success(true))
            while !shared.stopping.load(ordering: .relaxed) {
                guard let packet = shared.input.poll() else {
                    _ = shared.wake.wait(timeout: .now() + .milliseconds(200))
                    continue
                }
                decoder.renderPaused = shared.paused.load(ordering: .relaxed)
                let result: Result<PacketDecoder.Output, any Error> = Result { try decoder.decode(packet) }
                shared.output.withLock { snapshot in
                    snapshot.counters = decoder.counters
                    snapshot.renderPaused = decoder.renderPaused
                    switch result {
                    case let .success(.picture(picture)):
                        snapshot.preview = picture.preview
                        snapshot.previewTimestamp = picture.decodeTimestamp
                        snapshot.glassToGlass.record(
                            picture.marker, decodedAt: picture.decodedAtWallMicroseconds, streamMilliseconds: picture.decodeTimestamp)
                    case let .success(.audio(level)):
                        snapshot.audioLevel = level
                        if let mark = level.toneMarkMilliseconds { snapshot.glassToGlass.recordToneMark(atStreamMilliseconds: mark) }
                    case .success(.nothing):
                        break
                    case let .failure(error):
                        snapshot.decodeErrors += 1
                        snapshot.lastError = "\(error)"
                    }
                }
            }
        }
        worker.withLock { $0 = thread }
    }

    deinit { stop() }

    /// Queues a packet for decoding; never blocks (drops video to a keyframe if the decoder is behind).
    public func submit(_ packet: EncodedPacket) {
        shared.input.push(packet)
        shared.wake.signal()
    }

    /// Red5 pauseRender (true) / resumeRender (false): video is counted, not decoded, until resumed at a keyframe.
    public func setRenderPaused(_ paused: Bool) {
        shared.paused.store(paused, ordering: .relaxed)
        shared.wake.signal()
    }

    public var renderPaused: Bool { shared.paused.load(ordering: .relaxed) }

    public var snapshot: Snapshot {
        var snapshot = shared.output.withLock { $0 }
        let queue = shared.input.snapshot
        snapshot.backlog = queue.depth
        snapshot.videoPacketsDropped = queue.videoPacketsDropped
        return snapshot
    }

    /// Stops the thread and waits for it; packets not yet decoded are discarded.
    public func stop() {
        shared.stopping.store(true, ordering: .relaxed)
        shared.wake.signal()
        let thread = worker.withLock { worker -> WorkerThread? in
            defer { worker = nil }
            return worker
        }
        thread?.join()
        shared.input.finish()
    }
}
