import Synchronization
import OnAirCore
import Testing
@testable import OnAirMedia

@Suite("bounded output queue: drop video to the next keyframe")
struct PacketQueueTests {
    static func video(_ timestamp: Int64, key: Bool = false, bytes: Int = 100) -> EncodedPacket {
        EncodedPacket(kind: .video, decodeTimestamp: timestamp, isKeyframe: key, payload: [UInt8](repeating: 1, count: bytes))
    }

    static func audio(_ timestamp: Int64, bytes: Int = 10) -> EncodedPacket {
        EncodedPacket(kind: .audio, decodeTimestamp: timestamp, isKeyframe: true, payload: [UInt8](repeating: 2, count: bytes))
    }

    /// Counts keyframe requests from the queue.
    final class Requests: Sendable {
        let count = Mutex(0)
    }

    /// A monotonic clock the test steps by hand: the merge window is checked without sleeping.
    final class ManualClock: Sendable {
        private let nanoseconds = Atomic<UInt64>(1_000_000_000)
        func now() -> UInt64 { nanoseconds.load(ordering: .relaxed) }
        func advance(by duration: Duration) {
            let (seconds, attoseconds) = duration.components
            _ = nanoseconds.wrappingAdd(UInt64(seconds) * 1_000_000_000 + UInt64(attoseconds / 1_000_000_000), ordering: .relaxed)
        }
    }

    @Test("under a blocked consumer the depth never exceeds the bound; video is dropped up to a keyframe and counted")
    func blockedConsumer() throws {
        let requests = Requests()
        let queue = PacketQueue(capacity: 8, byteCapacity: 1 << 20) { requests.count.withLock { $0 += 1 } }
        for index in 0..<200 {
            let timestamp = Int64(index * 33)
            queue.push(Self.video(timestamp, key: index % 30 == 0))
            if index % 2 == 0 { queue.push(Self.audio(timestamp)) }
            #expect(queue.snapshot.depth <= 8)
        }
        let snapshot = queue.snapshot
        #expect(snapshot.highWater == 8)
        #expect(snapshot.videoPacketsDropped > 150)
        #expect(snapshot.congestionEvents > 0)
        let load = queue.load
        #expect(load.bytes == snapshot.bytes && load.droppedPackets == snapshot.videoPacketsDropped + snapshot.audioPacketsDropped,
                "ABR's light read agrees with the snapshot")
        #expect(requests.count.withLock { $0 } == 1, "a consumer that takes nothing is asked one keyframe for, not one per overflow")
        // What is left plays: the first queued video packet is a keyframe, and video timestamps increase.
        var drained: [EncodedPacket] = []
        while let packet = queue.poll() { drained.append(packet) }
        let video = drained.filter { $0.kind == .video }
        if let first = video.first { #expect(first.isKeyframe) }
        #expect(zip(video, video.dropFirst()).allSatisfy { $0.decodeTimestamp < $1.decodeTimestamp })
        #expect(queue.snapshot.depth == 0)
    }

    @Test("a keyframe is asked for again only after the consumer took something: a down link is not a keyframe storm")
    func keyframeAsksFollowProgress() {
        let requests = Requests()
        let queue = PacketQueue(capacity: 4, byteCapacity: 1 << 20) { requests.count.withLock { $0 += 1 } }
        // The link is down: 60 frames, every one a keyframe the encoder made because it was asked.
        for index in 0..<60 { queue.push(Self.video(Int64(index * 33), key: true)) }
        #expect(requests.count.withLock { $0 } == 1)
        // The link moves again: the consumer takes one packet, and the next overflow or refused frame asks again.
        _ = queue.poll()
        for index in 60..<70 { queue.push(Self.video(Int64(index * 33))) }
        #expect(requests.count.withLock { $0 } == 2)
        // Without further progress, no more asks.
        for index in 70..<100 { queue.push(Self.video(Int64(index * 33))) }
        #expect(requests.count.withLock { $0 } == 2)
    }

    @Test("audio that overflows a queue holding video drops that video, and video waits for the next keyframe")
    func audioOverflowWaitsForKeyframe() {
        let queue = PacketQueue(capacity: 4, byteCapacity: 1 << 20)
        queue.push(Self.video(0, key: true))
        queue.push(Self.video(33))
        queue.push(Self.audio(40))
        queue.push(Self.audio(60))
        queue.push(Self.audio(80))  // overflow: the two video packets go
        queue.push(Self.video(66))  // refers to the dropped frames: refused
        queue.push(Self.audio(100))
        queue.push(Self.audio(120))  // overflows a queue of audio alone: video still waits
        queue.push(Self.video(99))
        queue.push(Self.video(132, key: true))
        var drained: [EncodedPacket] = []
        while let packet = queue.poll() { drained.append(packet) }
        #expect(drained.filter { $0.kind == .video }.map(\.decodeTimestamp) == [132])
        #expect(drained.first { $0.kind == .video }?.isKeyframe == true)
    }

    @Test("the byte bound holds as well as the packet bound")
    func byteBound() {
        let queue = PacketQueue(capacity: 100, byteCapacity: 1_000)
        for index in 0..<50 { queue.push(Self.video(Int64(index), key: index % 10 == 0, bytes: 300)) }
        #expect(queue.snapshot.bytes <= 1_000)
        #expect(queue.snapshot.videoPacketsDropped >= 40)
    }

    @Test("after an overflow, P-frames are refused until a keyframe arrives, which is admitted")
    func dropsUntilKeyframe() {
        let queue = PacketQueue(capacity: 3, byteCapacity: 1 << 20)
        queue.push(Self.video(0, key: true))
        queue.push(Self.video(1))
        queue.push(Self.video(2))
        queue.push(Self.video(3)) // overflow: 0, 1, 2 go, 3 is refused
        #expect(queue.snapshot.depth == 0)
        #expect(queue.snapshot.droppingVideoUntilKeyframe)
        queue.push(Self.audio(3))
        queue.push(Self.video(4))
        #expect(queue.snapshot.depth == 1, "audio still flows; P-frame refused")
        queue.push(Self.video(5, key: true))
        queue.push(Self.video(6))
        #expect(!queue.snapshot.droppingVideoUntilKeyframe)
        #expect(queue.snapshot.videoPacketsDropped == 5)
        #expect([queue.poll(), queue.poll(), queue.poll()].map { $0?.decodeTimestamp } == [3, 5, 6])
    }

    @Test("a queue holding only audio drops its oldest audio, never growing")
    func audioOnlyOverflow() {
        let queue = PacketQueue(capacity: 4, byteCapacity: 1 << 20)
        for index in 0..<10 { queue.push(Self.audio(Int64(index))) }
        #expect(queue.snapshot.depth == 4)
        #expect(queue.snapshot.audioPacketsDropped == 6)
        #expect(queue.poll()?.decodeTimestamp == 6)
    }

    @Test("an async consumer receives packets in order, then nil after finish")
    func asyncConsumer() async {
        let queue = PacketQueue(capacity: 16)
        let stream = PacketStream(queue: queue)
        let consumer = Task {
            var timestamps: [Int64] = []
            for await packet in stream { timestamps.append(packet.decodeTimestamp) }
            return timestamps
        }
        for index in 0..<10 { queue.push(Self.audio(Int64(index))) }
        queue.finish()
        #expect(await consumer.value == Array(0..<10))
        #expect(queue.snapshot.packetsDelivered == 10)
    }

    @Test("cancelling the consuming task ends its iteration")
    func cancellation() async {
        let queue = PacketQueue(capacity: 16)
        let consumer = Task { await queue.nextBatch() }
        consumer.cancel()
        #expect(await consumer.value.isEmpty)
    }

    /// Starts a consumer and returns once it waits in `nextBatch`.
    static func waitingConsumer(_ queue: PacketQueue) async -> Task<[EncodedPacket], Never> {
        let consumer = Task { await queue.nextBatch() }
        for _ in 0..<5_000 where !queue.hasWaitingConsumer { try? await Task.sleep(for: .milliseconds(1)) }
        #expect(queue.hasWaitingConsumer)
        return consumer
    }

    @Test("while video flows, audio waits for the next video packet and both leave in one batch, in order")
    func audioWaitsForVideo() async {
        // A window far longer than the test: only a video packet (or finish) can release the audio.
        let queue = PacketQueue(capacity: 16, audioMergeNanoseconds: 60_000_000_000)
        queue.push(Self.video(0, key: true))
        #expect(await queue.nextBatch().map(\.decodeTimestamp) == [0])
        let consumer = await Self.waitingConsumer(queue)
        queue.push(Self.audio(10))
        queue.push(Self.audio(31))
        #expect(queue.snapshot.packetsDelivered == 1, "the audio waits")
        #expect(queue.snapshot.depth == 2)
        queue.push(Self.video(33))
        #expect(await consumer.value.map(\.decodeTimestamp) == [10, 31, 33])
        #expect(queue.snapshot.packetsDelivered == 4)
    }

    @Test("audio leaves at once with no video yet, with a window of 0, and when video stopped longer than the window")
    func audioAlone() async {
        let noVideoYet = PacketQueue(capacity: 16, audioMergeNanoseconds: 60_000_000_000)
        var consumer = await Self.waitingConsumer(noVideoYet)
        noVideoYet.push(Self.audio(0))
        #expect(await consumer.value.map(\.decodeTimestamp) == [0])

        let noWindow = PacketQueue(capacity: 16, audioMergeNanoseconds: 0)
        noWindow.push(Self.video(0, key: true))
        _ = await noWindow.nextBatch()
        consumer = await Self.waitingConsumer(noWindow)
        noWindow.push(Self.audio(21))
        #expect(await consumer.value.map(\.decodeTimestamp) == [21])

        // Video paused: the last video packet is older than the 20 ms window, so audio is not held; 1 ms
        // earlier, inside the window, the same audio waits.
        let clock = ManualClock()
        let paused = PacketQueue(capacity: 16, audioMergeNanoseconds: 20_000_000, clock: clock.now)
        paused.push(Self.video(0, key: true))
        _ = await paused.nextBatch()
        clock.advance(by: .milliseconds(19))
        consumer = await Self.waitingConsumer(paused)
        paused.push(Self.audio(40))
        #expect(paused.snapshot.depth == 1, "inside the window the audio waits for video")
        clock.advance(by: .milliseconds(41))
        paused.push(Self.audio(64))
        #expect(await consumer.value.map(\.decodeTimestamp) == [40, 64])
    }

    @Test("finishing hands over audio that was waiting for video, then ends the stream")
    func finishReleasesHeldAudio() async {
        let queue = PacketQueue(capacity: 16, audioMergeNanoseconds: 60_000_000_000)
        queue.push(Self.video(0, key: true))
        _ = await queue.nextBatch()
        let consumer = await Self.waitingConsumer(queue)
        queue.push(Self.audio(10))
        queue.finish()
        #expect(await consumer.value.map(\.decodeTimestamp) == [10])
        #expect(await queue.nextBatch().isEmpty)
    }

    @Test("a batch holds at most its limit; the rest stays queued, bytes and all, for the drop policy")
    func batchLimit() async {
        let queue = PacketQueue(capacity: 16)
        for index in 0..<10 { queue.push(Self.audio(Int64(index), bytes: 10)) }
        #expect(await queue.nextBatch(limit: 4).map(\.decodeTimestamp) == [0, 1, 2, 3])
        #expect(queue.snapshot.depth == 6)
        #expect(queue.snapshot.bytes == 60)
        #expect(await queue.nextBatch(limit: 100).count == 6)
        #expect(queue.snapshot.bytes == 0)
    }

    @Test("a packet loop that breaks early leaves the packets it did not see for the next loop")
    func breakingLosesNothing() async {
        let queue = PacketQueue(capacity: 16)
        for index in 0..<6 { queue.push(Self.audio(Int64(index))) }
        let stream = PacketStream(queue: queue)
        var first: [Int64] = []
        for await packet in stream {
            first.append(packet.decodeTimestamp)
            if first.count == 2 { break }
        }
        queue.finish()
        var rest: [Int64] = []
        for await packet in stream { rest.append(packet.decodeTimestamp) }
        #expect(first == [0, 1])
        #expect(rest == [2, 3, 4, 5])
    }
}
