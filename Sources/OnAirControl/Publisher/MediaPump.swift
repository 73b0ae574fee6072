import OnAirCore
import OnAirMedia
import OnAirNet
import Synchronization

/// Moves encoded packets from the engine to whichever RTMP connection is live, on its own task.
///
/// The engine keeps encoding while nothing is published (the preview stays live and the first frame of
/// a new broadcast is ready at once); those packets are dropped here. Video to a new connection waits for
/// a keyframe, so a subscriber's decoder never starts on a P-frame. The engine's bounded queue is the
/// only buffer: a slow socket makes `send` wait, the queue fills and the engine drops to the next keyframe.
public final class MediaPump: Sendable {
    private struct Target {
        var publisher: RTMPPublisher
        var awaitingKeyframe = true
    }

    private let target = Mutex<Target?>(nil)
    private let task = Mutex<Task<Void, Never>?>(nil)

    /// Starts draining `packets`: each batch the queue releases goes out in one write. While `hold` holds,
    /// writes wait and the engine's queue keeps what arrives: it leaves as one burst (ABR's burst probe).
    ///
    /// The task runs on the live connection's event loop (`EventLoopTaskExecutor`), not the task pool: a
    /// batch then costs one thread wake-up instead of three (issue 31).
    public func start(_ packets: PacketStream, hold: SendHold? = nil) {
        let executor = EventLoopTaskExecutor.following { [weak self] in self?.target.withLock { $0?.publisher } }
        let pump = Task(executorPreference: executor) { [weak self] in
            for await batch in packets.batches {
                if let wait = hold?.remaining { try? await Task.sleep(for: wait) }
                guard let self else { return }
                guard let (publisher, accepted) = self.route(batch) else { continue }
                // A failed send means the connection is going away; its own events report that.
                do {
                    try await publisher.send(accepted)
                } catch {}
            }
        }
        task.withLock { $0 = pump }
    }

    /// Sends media to `publisher` from the next keyframe on; `nil` stops sending.
    public func route(to publisher: RTMPPublisher?) {
        target.withLock { $0 = publisher.map { Target(publisher: $0) } }
    }

    public func stop() {
        task.withLock { $0 }?.cancel()
        route(to: nil)
    }

    /// The live publisher and what of `batch` it takes: nothing without one, and no video before a keyframe.
    private func route(_ batch: [EncodedPacket]) -> (RTMPPublisher, [EncodedPacket])? {
        target.withLock { target in
            guard var current = target else { return nil }
            var accepted: [EncodedPacket] = []
            accepted.reserveCapacity(batch.count)
            for packet in batch {
                if packet.kind == .video && current.awaitingKeyframe {
                    guard packet.isKeyframe else { continue }
                    current.awaitingKeyframe = false
                }
                accepted.append(packet)
            }
            target = current
            return accepted.isEmpty ? nil : (current.publisher, accepted)
        }
    }
}
