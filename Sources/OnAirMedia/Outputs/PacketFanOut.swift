import OnAirCore
import Synchronization

/// One encode, several destinations: takes every packet the engine's queue releases and copies it into one
/// bounded `PacketQueue` per output, each with its own consumer (docs/multi-destination.md).
///
/// Why a queue per output: the engine's queue has one consumer, and a consumer that sends to every output
/// in turn waits for the slowest socket — ffmpeg's `tee` without `use_fifo`, where one slow TCP peer stalls
/// every output. Here the fan-out never waits for a socket: `PacketQueue.push` does not block, so a stalled
/// output's queue fills and drops its own video to the next keyframe (its own drop-to-keyframe, OBS's rule)
/// while the other queues, and the encoder, go on. Packets are values (their payload is shared, not
/// copied), so N outputs cost N queue entries, not N encodes or N copies of the bytes.
///
/// A queue's overflow asks the encoder for a keyframe, as the engine's own queue does; `PacketQueue` asks
/// again only after its consumer took something, so an output whose server is stopped does not turn every
/// frame of the others into a keyframe.
public final class PacketFanOut: Sendable {
    /// One queue per output, in the outputs' order.
    public let queues: [PacketQueue]
    private let task = Mutex<Task<Void, Never>?>(nil)

    /// `outputs` queues shaped like the engine's (capacity, bytes, audio merge), each asking `engine` for a
    /// keyframe when it overflows.
    public convenience init(outputs: Int, engine: MediaEngine) {
        let configuration = engine.configuration
        self.init(outputs: outputs, capacity: configuration.outputQueueCapacity, byteCapacity: configuration.resolvedOutputQueueBytes) {
            engine.requestKeyframe()
        }
    }

    public init(outputs: Int, capacity: Int, byteCapacity: Int, onCongestion: @escaping @Sendable () -> Void) {
        precondition(outputs >= 1, "a fan-out has at least one output")
        // No audio merge here: the engine's queue already released audio with its video, and holding it a
        // second time would only delay it.
        queues = (0..<outputs).map { _ in
            PacketQueue(capacity: capacity, byteCapacity: byteCapacity, audioMergeNanoseconds: 0, onCongestion: onCongestion)
        }
    }

    /// Output `index`'s packets (0-based), for its pump.
    public func stream(_ index: Int) -> PacketStream { PacketStream(queue: queues[index]) }

    /// Starts copying `source` (the engine's packets) into every queue; the queues finish when it does.
    public func start(_ source: PacketStream) {
        let queues = queues
        let copier = Task.detached {
            for await batch in source.batches {
                for queue in queues {
                    for packet in batch { queue.push(packet) }
                }
            }
            for queue in queues { queue.finish() }
        }
        task.withLock { $0 = copier }
    }

    /// Stops copying and ends every output's stream.
    public func stop() {
        task.withLock { $0 }?.cancel()
        for queue in queues { queue.finish() }
    }

    /// Output `index`'s queued bytes and congestion drops (ABR's send load for that output).
    public func load(_ index: Int) -> (bytes: Int, droppedPackets: Int) { queues[index].load }
}
