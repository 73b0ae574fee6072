import OnAirCore

/// The engine's packets as an `AsyncSequence`: `for await packet in engine.packets { … }`, or in the batches
/// the queue releases them in: `for await batch in engine.packets.batches { … }` (one socket write each).
public struct PacketStream: AsyncSequence, Sendable {
    public typealias Element = EncodedPacket
    let queue: PacketQueue

    /// Takes one packet per step and buffers nothing, so a loop that breaks early leaves every packet it
    /// did not see in the queue for the next reader.
    public struct AsyncIterator: AsyncIteratorProtocol {
        let queue: PacketQueue

        public mutating func next() async -> EncodedPacket? {
            await queue.nextBatch(limit: 1).first
        }
    }

    public func makeAsyncIterator() -> AsyncIterator { AsyncIterator(queue: queue) }

    /// Every wake-up's packets together (at most `PacketQueue.nextBatch`'s limit), in order; the sequence
    /// ends when the engine stops.
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
