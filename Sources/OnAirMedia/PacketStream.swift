import OnAirCore

/// The engine's packets as an `AsyncSequence`: `for await packet in engine.packets { … }`.
public struct PacketStream: AsyncSequence, Sendable {
    public typealias Element = EncodedPacket
    let queue: PacketQueue

    public struct AsyncIterator: AsyncIteratorProtocol {
        let queue: PacketQueue
        public mutating func next() async -> EncodedPacket? { await queue.next() }
    }

    public func makeAsyncIterator() -> AsyncIterator { AsyncIterator(queue: queue) }
}
