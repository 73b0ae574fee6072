import DequeModule
import Dispatch
import Foundation
import OnAirCore
import Synchronization

/// The subscriber's decoder on a thread of its own: packets go in from the network loop without waiting,
/// the newest preview picture and audio level come out for the dashboard to pull.
///
/// `PacketDecoder` owns libavcodec contexts, so it is created and used only on this thread. The inbox is
/// bounded: when decoding falls behind (a slow machine, a huge picture), whole GOPs are dropped — the
/// queue is cleared and decoding waits for the next keyframe — rather than memory growing or the
/// preview lagging further and further behind the stream.
public final class DecoderThread: Sendable {
    /// What the dashboard reads.
    public struct Output: Sendable, Equatable {
        public var preview: PreviewImage?
        public var audioLevel: PacketDecoder.AudioLevel?
        public var counters = PacketDecoder.Counters()
        /// Packets dropped because decoding fell behind.
        public var droppedBehind = 0
        /// The last decode error, in one line.
        public var lastError: String?
    }

    private struct Inbox {
        var packets = Deque<EncodedPacket>()
        var tracks: (video: VideoTrackDescription?, audio: AudioTrackDescription?)?
        var renderPaused: Bool?
        var awaitingKeyframe = false
        var stopped = false
    }

    private let inbox = Mutex(Inbox())
    private let output = Mutex(Output())
    private let wake = DispatchSemaphore(value: 0)
    private let finished = DispatchSemaphore(value: 0)
    private let capacity: Int

    public init(previewWidth: Int = 64, previewHeight: Int = 36, capacity: Int = 240) {
        self.capacity = capacity
        let thread = Thread { [self] in run(previewWidth: previewWidth, previewHeight: previewHeight) }
        thread.name = "onair-decoder"
        thread.stackSize = 8 << 20
        thread.start()
    }

    deinit {
        stop()
    }

    /// New codec configuration (sequence headers arrived): the decoder is rebuilt before the next packet.
    public func configure(video: VideoTrackDescription?, audio: AudioTrackDescription?) {
        inbox.withLock { $0.tracks = (video, audio) }
        wake.signal()
    }

    /// Red5's `pauseRender` (true) / `resumeRender` (false).
    public func setRenderPaused(_ paused: Bool) {
        inbox.withLock { $0.renderPaused = paused }
        wake.signal()
    }

    /// Queues a packet; never blocks.
    public func submit(_ packet: EncodedPacket) {
        let dropped: Int = inbox.withLock { inbox in
            if inbox.awaitingKeyframe {
                guard packet.kind == .audio || packet.isKeyframe else { return 1 }
                inbox.awaitingKeyframe = false
            }
            if inbox.packets.count >= capacity {
                let count = inbox.packets.count + (packet.kind == .video && !packet.isKeyframe ? 1 : 0)
                inbox.packets.removeAll()
                if packet.kind == .video && !packet.isKeyframe {
                    inbox.awaitingKeyframe = true
                    return count
                }
                inbox.packets.append(packet)
                return count
            }
            inbox.packets.append(packet)
            return 0
        }
        if dropped > 0 { output.withLock { $0.droppedBehind += dropped } }
        wake.signal()
    }

    public var latest: Output { output.withLock { $0 } }

    public func stop() {
        let first = inbox.withLock { inbox in
            defer { inbox.stopped = true }
            return !inbox.stopped
        }
        guard first else { return }
        wake.signal()
        finished.wait()
    }

    private func run(previewWidth: Int, previewHeight: Int) {
        defer { finished.signal() }
        var decoder: PacketDecoder?
        var renderPaused = false
        while true {
            wake.wait()
            while true {
                let next = inbox.withLock { inbox -> (stop: Bool, tracks: (VideoTrackDescription?, AudioTrackDescription?)?, paused: Bool?, packet: EncodedPacket?) in
                    defer {
                        inbox.tracks = nil
                        inbox.renderPaused = nil
                    }
                    let packet = inbox.packets.isEmpty ? nil : inbox.packets.removeFirst()
                    return (inbox.stopped, inbox.tracks, inbox.renderPaused, packet)
                }
                if next.stop { return }
                if let tracks = next.tracks {
                    do {
                        decoder = try PacketDecoder(video: tracks.0, audio: tracks.1, previewWidth: previewWidth, previewHeight: previewHeight)
                        decoder?.renderPaused = renderPaused
                    } catch {
                        decoder = nil
                        output.withLock { $0.lastError = "\(error)" }
                    }
                }
                if let paused = next.paused {
                    renderPaused = paused
                    decoder?.renderPaused = paused
                }
                guard let packet = next.packet else { break }
                guard let decoder else { continue }
                do {
                    let result = try decoder.decode(packet)
                    output.withLock { output in
                        switch result {
                        case .picture(let picture): output.preview = picture.preview
                        case .audio(let level): output.audioLevel = level
                        case .none: break
                        }
                        output.counters = decoder.counters
                    }
                } catch {
                    output.withLock { $0.lastError = "\(error)" }
                }
            }
        }
    }
}
