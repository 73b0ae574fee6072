import NIOCore
@testable import OnAirRelay
import Testing

@Suite("Relay player queue")
struct RelayPlayerQueueTests {
    private func item(_ size: Int, _ kind: RelayPlayerQueue.Kind) -> RelayPlayerQueue.Item {
        RelayPlayerQueue.Item(bytes: ByteBuffer(repeating: 0, count: size), kind: kind)
    }

    @Test("items that fit are queued and come out in order")
    func queuesInOrder() {
        var queue = RelayPlayerQueue(limit: 100)
        #expect(queue.enqueue(item(10, .control)) == .queued)
        #expect(queue.enqueue(item(20, .media(randomAccess: true))) == .queued)
        #expect(queue.enqueue(item(30, .media(randomAccess: false))) == .queued)
        #expect(queue.queuedBytes == 60)
        #expect([queue.dequeue(), queue.dequeue(), queue.dequeue()].map { $0?.bytes.readableBytes } == [10, 20, 30])
        #expect(queue.dequeue() == nil)
        #expect(queue.droppedMessages == 0)
    }

    @Test("an overflow discards queued media, keeps control, and skips to the next random-access point")
    func overflowDropsToKeyframe() {
        var queue = RelayPlayerQueue(limit: 100)
        _ = queue.enqueue(item(40, .media(randomAccess: true)))
        _ = queue.enqueue(item(5, .control))
        _ = queue.enqueue(item(40, .media(randomAccess: false)))
        #expect(queue.enqueue(item(40, .media(randomAccess: false))) == .startedDropping)
        #expect(queue.waitingForRandomAccess)
        #expect(queue.droppedMessages == 3)               // two queued + the one that did not fit
        #expect(queue.queuedBytes == 5)                   // the control item survives
        #expect(queue.enqueue(item(10, .media(randomAccess: false))) == .dropped)
        #expect(queue.enqueue(item(30, .media(randomAccess: true))) == .queued)
        #expect(!queue.waitingForRandomAccess)
        #expect(queue.droppedMessages == 4)
        #expect(queue.dequeue()?.kind == .control)
        #expect(queue.dequeue()?.kind == .media(randomAccess: true))
    }

    @Test("a keyframe that overflows the queue replaces the stale media at once")
    func keyframeOverflowRestarts() {
        var queue = RelayPlayerQueue(limit: 100)
        _ = queue.enqueue(item(60, .media(randomAccess: false)))
        #expect(queue.enqueue(item(60, .media(randomAccess: true))) == .startedDropping)
        #expect(!queue.waitingForRandomAccess)
        #expect(queue.queuedBytes == 60)
        #expect(queue.droppedMessages == 1)
    }

    @Test("control items are never dropped; essential items only past twice the limit")
    func controlAndEssentialBounds() {
        var queue = RelayPlayerQueue(limit: 100)
        for _ in 0..<10 { #expect(queue.enqueue(item(50, .control)) == .queued) }
        #expect(queue.enqueue(item(50, .essential)) == .dropped)
        var other = RelayPlayerQueue(limit: 100)
        #expect(other.enqueue(item(150, .essential)) == .queued)
        #expect(other.enqueue(item(60, .essential)) == .dropped)
        #expect(other.droppedMessages == 1)
    }

    @Test("a small slice of a large batch is copied out before it is queued, so it does not pin the batch")
    func slicesDoNotPinTheirBatch() {
        var queue = RelayPlayerQueue(limit: 1 << 20)
        let batch = ByteBuffer(repeating: 7, count: 4 << 20)
        let slice = batch.getSlice(at: 1000, length: 100)!
        #expect(slice.storageCapacity >= 4 << 20)
        #expect(queue.enqueue(RelayPlayerQueue.Item(bytes: slice, kind: .media(randomAccess: true))) == .queued)
        let queued = queue.dequeue()
        #expect(queued?.bytes == slice)
        #expect((queued?.bytes.storageCapacity ?? .max) <= RelayPlayerQueue.maxPinned(100))
    }

    @Test("control bytes are counted apart, so the owner can close a peer that never reads its answers")
    func countsControlBytes() {
        var queue = RelayPlayerQueue(limit: 100)
        for _ in 0..<50 { _ = queue.enqueue(item(18, .control)) }
        _ = queue.enqueue(item(20, .media(randomAccess: true)))
        #expect(queue.queuedControlBytes == 900)
        _ = queue.dequeue()
        #expect(queue.queuedControlBytes == 882)
    }
}
