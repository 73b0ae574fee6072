import DequeModule
import Dispatch
import OnAirCore
import Synchronization

/// The subscriber's decoder on its own thread: packets and track configurations in without blocking, the
/// latest preview and audio level out as a value the dashboard pulls.
///
/// Why a thread and a bounded input: decoding is blocking C work that must stay off the cooperative pool,
/// and a subscriber that falls behind must not buffer without bound. Input goes through a `PacketQueue`
/// (drop video to the next keyframe), so a slow decoder skips to a fresh picture instead of lagging.
/// Configuration changes and drains keep their place among the packets: each takes effect once every
/// packet submitted before it has been decoded or dropped, so the last frames of an old configuration
/// are decoded with the decoder they were made for. `renderPaused` is Red5's pauseRender/resumeRender.
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
        /// Audio the input queue dropped: only when it held nothing but audio and was still full.
        public var audioPacketsDropped = 0
        public var decodeErrors = 0
        public var lastError: String?
        /// One line per track configuration the decoders refused (too large a picture, a broken AAC
        /// configuration), oldest first; at most ``DecoderThread/maxProblems``.
        public var problems: [String] = []
        /// Commands (configurations, drains) not yet applied.
        public var pendingCommands = 0
        /// Frame markers read from the decoded pictures (glass-to-glass latency, frozen time, skipped frames).
        public var glassToGlass = GlassToGlassMeter()
    }

    /// How many refused configurations a snapshot keeps (a hostile peer may send thousands).
    public static let maxProblems = 16

    fileprivate enum Command: Sendable {
        case video(VideoTrackDescription?)
        case audio(AudioTrackDescription?)
        case drain

        var isConfiguration: Bool {
            if case .drain = self { return false }
            return true
        }
    }

    /// What the thread and the callers share; the thread holds this, not the `DecoderThread`, so `deinit` can stop it.
    private final class Shared: Sendable {
        let input: PacketQueue
        let wake = DispatchSemaphore(value: 0)
        let stopping = Atomic(false)
        let paused = Atomic(false)
        let submitted = Atomic(0)
        /// Each command with the number of packets submitted before it.
        let commands = Mutex(Deque<(after: Int, command: Command)>())
        let output = Mutex(Snapshot())
        /// Where a producer waits for room in `input` (``DecoderThread/waitForRoom(forBytes:timeout:)``): the
        /// thread wakes it after each packet it takes; a wake only makes it look again.
        let room: RoomGate

        init(input: PacketQueue) {
            self.input = input
            room = RoomGate { input.hasRoom(forBytes: $0) }
        }

        /// Packets that have left the queue, decoded or dropped.
        var passed: Int {
            let queue = input.snapshot
            return queue.packetsDelivered + queue.videoPacketsDropped + queue.audioPacketsDropped
        }

        /// The commands whose packets have all passed, in order; `beforeLatest`: those queued before the packet
        /// that has just left the queue was submitted.
        func dueCommands(all: Bool, beforeLatest: Bool = false) -> [Command] {
            guard all || !commands.withLock({ $0.isEmpty }) else { return [] }
            let passed = all ? Int.max : self.passed - (beforeLatest ? 1 : 0)
            return commands.withLock { commands in
                var due: [Command] = []
                while let first = commands.first, first.after <= passed { due.append(commands.removeFirst().command) }
                return due
            }
        }
    }

    private let shared: Shared
    private let worker = Mutex<WorkerThread?>(nil)

    /// Starts the decoding thread with decoders for the given tracks. A track libavcodec refuses is reported
    /// in ``Snapshot/problems`` and the other track still decodes; throws only if the thread cannot start.
    public init(
        video: VideoTrackDescription?, audio: AudioTrackDescription?, previewWidth: Int = 128, previewHeight: Int = 72,
        backlog: Int = 90, glassToGlass: GlassToGlassMeter = GlassToGlassMeter()
    ) throws {
        let shared = Shared(input: PacketQueue(capacity: backlog, byteCapacity: 16 << 20))
        shared.output.withLock { $0.glassToGlass = glassToGlass }
        self.shared = shared
        shared.commands.withLock { $0 = [(0, .video(video)), (0, .audio(audio))] }
        let (thread, _) = try WorkerThread.start(name: "onair.decode") { (ready: @Sendable (Result<Bool, any Error>) -> Void) in
            let decoder: PacketDecoder
            do {
                decoder = try PacketDecoder(video: nil, audio: nil, previewWidth: previewWidth, previewHeight: previewHeight)
            } catch {
                ready(.failure(error))
                return
            }
            ready(.success(true))
            while !shared.stopping.load(ordering: .relaxed) {
                Self.apply(shared.dueCommands(all: false), to: decoder, shared: shared)
                guard let packet = shared.input.poll() else {
                    _ = shared.wake.wait(timeout: .now() + .milliseconds(200))
                    continue
                }
                shared.room.wake()
                // A command queued after the look above but before this packet was submitted applies to it
                // first (`configure(video:)` then `submit(keyframe)` raced the loop: the keyframe went to no
                // decoder, and the 29 frames after it waited for the next keyframe).
                Self.apply(shared.dueCommands(all: false, beforeLatest: true), to: decoder, shared: shared)
                decoder.renderPaused = shared.paused.load(ordering: .relaxed)
                Self.publish(Result { try decoder.decode(packet) }, from: decoder, shared: shared)
            }
            // Exit: what was submitted is decoded, then whatever the decoders still hold.
            while let packet = shared.input.poll() {
                Self.publish(Result { try decoder.decode(packet) }, from: decoder, shared: shared)
            }
            Self.apply(shared.dueCommands(all: true) + [.drain], to: decoder, shared: shared)
        }
        worker.withLock { $0 = thread }
    }

    deinit { stop() }

    /// Queues a packet for decoding; never blocks (drops video to a keyframe if the decoder is behind).
    public func submit(_ packet: EncodedPacket) {
        shared.submitted.add(1, ordering: .relaxed)
        shared.input.push(packet)
        shared.wake.signal()
    }

    /// Whether the input queue takes a packet of `bytes` now without dropping anything.
    public func hasRoom(forBytes bytes: Int) -> Bool { shared.input.hasRoom(forBytes: bytes) }

    /// Returns true once the input queue takes a packet of `bytes` without dropping anything, or false
    /// after `timeout` without room (or once the thread stops): the subscriber's player task waits here, so
    /// a burst is paced by decoding, not dropped. True means room *now*: with one producer it stays until
    /// that producer submits (``RoomGate``: a wake alone once meant room already used, and a silent overflow).
    public func waitForRoom(forBytes bytes: Int, timeout: Duration) async -> Bool {
        await shared.room.wait(forBytes: bytes, until: ContinuousClock.now + timeout)
    }

    /// Uses `track` for the video packets submitted from now on; the decoder is rebuilt (after draining the
    /// old one) only when the SPS or PPS differ from the ones it has.
    public func configure(video track: VideoTrackDescription?) { enqueue(.video(track)) }

    /// Uses `track` for the audio packets submitted from now on; rebuilt only when the configuration differs.
    public func configure(audio track: AudioTrackDescription?) { enqueue(.audio(track)) }

    /// Decodes what both decoders still hold once the packets submitted so far are done (the stream ended
    /// or stalled), so the last frames of a B-frame stream are shown and counted.
    public func drain() { enqueue(.drain) }

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
        snapshot.audioPacketsDropped = queue.audioPacketsDropped
        snapshot.pendingCommands = shared.commands.withLock { $0.count }
        return snapshot
    }

    /// Decodes what is queued, drains the decoders and stops the thread, waiting for it.
    public func stop() {
        shared.stopping.store(true, ordering: .relaxed)
        shared.wake.signal()
        let thread = worker.withLock { worker -> WorkerThread? in
            defer { worker = nil }
            return worker
        }
        thread?.join()
        shared.input.finish()
        shared.room.close()
    }

    private func enqueue(_ command: Command) {
        let after = shared.submitted.load(ordering: .relaxed)
        shared.commands.withLock { $0.append((after, command)) }
        shared.wake.signal()
    }

    private static func apply(_ commands: [Command], to decoder: PacketDecoder, shared: Shared) {
        for command in commands {
            let result: Result<PacketDecoder.Output, any Error> = Result {
                switch command {
                case .video(let track): try decoder.configureVideo(track)
                case .audio(let track): try decoder.configureAudio(track)
                case .drain: try decoder.drain()
                }
            }
            publish(result, from: decoder, shared: shared, isConfiguration: command.isConfiguration)
        }
    }

    private static func publish(
        _ result: Result<PacketDecoder.Output, any Error>, from decoder: PacketDecoder, shared: Shared, isConfiguration: Bool = false
    ) {
        shared.output.withLock { snapshot in
            snapshot.counters = decoder.counters
            snapshot.renderPaused = decoder.renderPaused
            switch result {
            case let .success(.picture(picture)):
                // A replayed picture (its marker older than the one on show) is counted, never shown: the
                // preview does not go backwards.
                if snapshot.glassToGlass.record(
                    picture.marker, decodedAt: picture.decodedAtWallMicroseconds, streamMilliseconds: picture.decodeTimestamp,
                    isSlate: picture.isSlate) {
                    snapshot.preview = picture.preview
                    snapshot.previewTimestamp = picture.decodeTimestamp
                }
            case let .success(.audio(level)):
                snapshot.audioLevel = level
                if let mark = level.toneMarkMilliseconds { snapshot.glassToGlass.recordToneMark(atStreamMilliseconds: mark) }
            case .success(.nothing):
                break
            case let .failure(error) where isConfiguration:
                if snapshot.problems.count < DecoderThread.maxProblems { snapshot.problems.append("\(error)") }
            case let .failure(error):
                snapshot.decodeErrors += 1
                snapshot.lastError = "\(error)"
            }
        }
    }
}

