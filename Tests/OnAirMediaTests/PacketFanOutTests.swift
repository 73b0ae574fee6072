import OnAirCore
import Synchronization
import Testing
@testable import OnAirMedia

/// One encode, several outputs: every output's queue receives every packet, and an output nobody drains
/// overflows and drops only its own video, never delaying the others (docs/multi-destination.md).
@Suite("fan-out: a bounded queue per output")
struct PacketFanOutTests {
    /// Keyframe requests the fan-out's queues made.
    final class Requests: Sendable {
        let count = Mutex(0)
    }

    /// 30 fps video with a keyframe every 30 frames, and audio beside it.
    static func packets(_ count: Int) -> [EncodedPacket] {
        (0..<count).flatMap { index -> [EncodedPacket] in
            let timestamp = Int64(index * 33)
            return [
                EncodedPacket(kind: .video, decodeTimestamp: timestamp, isKeyframe: index % 30 == 0, payload: [UInt8](repeating: 1, count: 500)),
                EncodedPacket(kind: .audio, decodeTimestamp: timestamp, isKeyframe: true, payload: [UInt8](repeating: 2, count: 20)),
            ]
        }
    }

    @Test("every output's stream carries every packet, in order")
    func everyOutputGetsEveryPacket() async {
        let source = PacketQueue(capacity: 1000, byteCapacity: 1 << 24)
        let fanOut = PacketFanOut(outputs: 3, capacity: 1000, byteCapacity: 1 << 24) {}
        let sent = Self.packets(90)
        for packet in sent { source.push(packet) }
        source.finish()
        fanOut.start(PacketStream(queue: source))
        for output in 0..<3 {
            var received: [EncodedPacket] = []
            for await batch in fanOut.stream(output).batches { received += batch }
            #expect(received == sent, "output \(output + 1) got \(received.count) of \(sent.count)")
        }
    }

    @Test("an output nobody drains drops its own video to a keyframe; the drained output loses nothing and the source is never held")
    func stalledOutputIsIsolated() async {
        let requests = Requests()
        let source = PacketQueue(capacity: 8, byteCapacity: 1 << 20)
        let fanOut = PacketFanOut(outputs: 2, capacity: 16, byteCapacity: 1 << 20) { requests.count.withLock { $0 += 1 } }
        fanOut.start(PacketStream(queue: source))
        let sent = Self.packets(300)
        let drained = Task {
            var received: [EncodedPacket] = []
            for await batch in fanOut.stream(1).batches { received += batch }
            return received
        }
        // Fed a little at a time into a source of 8: a fan-out that waited for the stalled queue would make the
        // source overflow and drop.
        for chunk in stride(from: 0, to: sent.count, by: 4) {
            for packet in sent[chunk..<min(chunk + 4, sent.count)] { source.push(packet) }
            while source.snapshot.depth > 0 { await Task.yield() }
        }
        source.finish()
        let received = await drained.value
        let stalled = fanOut.queues[0].snapshot
        #expect(received == sent, "the drained output got \(received.count) of \(sent.count) packets")
        #expect(source.snapshot.videoPacketsDropped + source.snapshot.audioPacketsDropped == 0, "the engine's queue dropped: the fan-out waited")
        #expect(stalled.depth <= 16)
        #expect(stalled.videoPacketsDropped > 0 && stalled.congestionEvents > 0)
        #expect(fanOut.queues[1].snapshot.videoPacketsDropped == 0)
        // One ask per overflow spell while nothing is taken: the stalled output does not make every frame a keyframe.
        #expect(requests.count.withLock { $0 } == 1)
    }
}
