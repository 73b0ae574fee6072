import DequeModule
import OnAirCore

/// The engine's packets as an `AsyncSequence`: `for await packet in engine.packets { … }`, or in the batches
/// the queue releases them in: `for await batch in engine.packets.batches { … }` (one socket write each).
public struct PacketStream: AsyncSequence, Sendable {
    public typealias Element = EncodedPacket
    let queue: PacketQueue

    public struct AsyncIterator: AsyncIteratorProtocol {
        let queue: PacketQueue
        var pending = Deque<EncodedPacket>()

        public mutating func next() async -> EncodedPacket? {
            if pending.isEmpty { pending.append(contentsOf: await queue.nextBatch()) }
            return pending.popFirst()
        }
    }

    public func makeAsyncIterator() -> AsyncIterator { AsyncIterator(queue: queue) }

    /// Every wake-up's packets together, in order; the sequence ends when the engine stops.
    public var batches: Batches { Batches(queue: queue) }

    public struct Batches: AsyncSequence, Sendable {
        public typealias Element = [EncodedPacket]
        let queue: PacketQueue

        public struct AsyncIterator: AsyncIteratorProtocol {
            let queue: PacketQueue
            public mutating func next() async -> [EncodedPacket]? {
                let batch = await queue.nextBatch()
                return batch.isEmpty ? nil : batch
            }
        }

        public func makeAsyncIterator() -> AsyncIterator { AsyncIterator(queue: queue) }
    }
}
