import Synchronization
import Testing
@testable import OnAirMedia

/// The producer's side of the decoder's bounded queue (issue 25): true from ``RoomGate`` must mean room now.
@Suite("RoomGate: a producer waits for room in a bounded queue")
struct RoomGateTests {
    /// A queue of two slots, counted; `depth` is what the consumer and the producer change.
    final class Slots: Sendable {
        let depth = Mutex(2)
        let capacity = 2
        var hasRoom: Bool { depth.withLock { $0 < capacity } }
    }

    @Test("a late wake for room the producer already used is not room: it waits for the next take (the burst's 57 lost packets)")
    func lateWakeIsNotRoom() async {
        let slots = Slots()
        let gate = RoomGate { _ in slots.hasRoom }
        // The consumer took a packet (depth 1) and has not woken anyone yet; the producer saw that room and
        // filled it (depth 2 again), then waits for room for its next packet.
        let answer = Mutex<Bool?>(nil)
        let producer = Task {
            let room = await gate.wait(forBytes: 1, until: .now + .seconds(600))
            answer.withLock { $0 = room }
        }
        #expect(await EngineTestSupport.eventually { gate.parked == 1 })
        // The consumer's wake for the take above arrives now, for a slot that is full again.
        gate.wake()
        #expect(await EngineTestSupport.eventually { gate.parked == 2 || answer.withLock { $0 } != nil })
        #expect(answer.withLock { $0 } == nil, "the producer was told there was room while the queue was full")
        // A real take: now there is room.
        slots.depth.withLock { $0 = 1 }
        gate.wake()
        await producer.value
        #expect(answer.withLock { $0 } == true)
    }

    @Test("no room by the deadline is false; room before it is true at once, without parking")
    func deadline() async {
        let slots = Slots()
        let gate = RoomGate { _ in slots.hasRoom }
        let start = ContinuousClock.now
        #expect(await gate.wait(forBytes: 1, until: start + .milliseconds(50)) == false)
        #expect(ContinuousClock.now - start >= .milliseconds(50))
        slots.depth.withLock { $0 = 0 }
        #expect(await gate.wait(forBytes: 1, until: .now + .seconds(600)) == true)
        #expect(gate.parked == 1)
    }

    @Test("closing the gate (the decoder stops) releases a waiting producer with false, and later ones at once")
    func closeReleases() async {
        let slots = Slots()
        let gate = RoomGate { _ in slots.hasRoom }
        let producer = Task { await gate.wait(forBytes: 1, until: .now + .seconds(600)) }
        #expect(await EngineTestSupport.eventually { gate.parked == 1 })
        gate.close()
        #expect(await producer.value == false)
        #expect(await gate.wait(forBytes: 1, until: .now + .seconds(600)) == false)
    }

    @Test("the room asked for is the packet's size: a byte-bound queue is not 'roomy' for a packet that would overflow it")
    func asksWithThePacketSize() async {
        let queue = PacketQueue(capacity: 10, byteCapacity: 1000)
        queue.push(PacketQueueTests.video(0, key: true, bytes: 600))
        #expect(queue.hasRoom(forBytes: 400))
        #expect(!queue.hasRoom(forBytes: 401))
        let gate = RoomGate { queue.hasRoom(forBytes: $0) }
        #expect(await gate.wait(forBytes: 401, until: .now + .milliseconds(20)) == false)
        #expect(queue.snapshot.videoPacketsDropped == 0)
    }
}
