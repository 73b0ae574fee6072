import Foundation
import OnAirCore
import OnAirMedia
import Testing

@testable import OnAirApp
@testable import OnAirControl

/// The publisher's `stats` event carries the congestion level and the drop counters (README, "Headless output").
@Suite("publisher stats event: congestion and drops")
struct PublisherStatsEventTests {
    private func packet(_ kind: EncodedPacket.Kind, keyframe: Bool = false, bytes: Int = 100) -> EncodedPacket {
        EncodedPacket(kind: kind, decodeTimestamp: 0, isKeyframe: keyframe || kind == .audio, payload: [UInt8](repeating: 0, count: bytes))
    }

    @Test("an engine with nothing queued reports congestion 0 and no drops")
    func idleEngine() {
        var stats = MediaStats()
        stats.output = PacketQueue(capacity: 10).snapshot
        let details = stats.headlessDetails
        #expect(details["congestion"] == .number(0))
        #expect(details["droppedVideoPackets"] == .integer(0))
        #expect(details["droppedAudioPackets"] == .integer(0))
        #expect(details["congestionEvents"] == .integer(0))
        #expect(details["dropped"] == .integer(0))
    }

    @Test("the congestion level is the queue's fullness, by packets or by bytes, whichever is higher — as the dashboard shows")
    func congestionIsQueueFullness() {
        let byCount = PacketQueue(capacity: 8, byteCapacity: 1 << 20)
        (0..<2).forEach { _ in byCount.push(packet(.audio)) }
        var stats = MediaStats()
        stats.output = byCount.snapshot
        #expect(stats.headlessDetails["congestion"] == .number(0.25))
        #expect(stats.headlessDetails["congestion"] == .number(stats.congestion))

        let byBytes = PacketQueue(capacity: 100, byteCapacity: 1000)
        byBytes.push(packet(.video, keyframe: true, bytes: 420))
        stats.output = byBytes.snapshot
        #expect(stats.headlessDetails["congestion"] == .number(0.42))
    }

    @Test("a queue overflow shows as dropped video packets, one congestion event, and in the total")
    func overflowIsCounted() {
        let queue = PacketQueue(capacity: 3, byteCapacity: 1 << 20)
        queue.push(packet(.video, keyframe: true))
        queue.push(packet(.video))
        queue.push(packet(.audio))
        queue.push(packet(.video))  // overflow: the two queued video packets go, and this one waits for a keyframe
        queue.push(packet(.video))  // refused until the next keyframe
        let snapshot = queue.snapshot
        var stats = MediaStats()
        stats.output = snapshot
        stats.drops.congestionVideoPackets = snapshot.videoPacketsDropped
        stats.drops.congestionAudioPackets = snapshot.audioPacketsDropped
        let details = stats.headlessDetails
        #expect(details["droppedVideoPackets"] == .integer(4))
        #expect(details["droppedAudioPackets"] == .integer(0))
        #expect(details["congestionEvents"] == .integer(1))
        #expect(details["dropped"] == .integer(4))
        #expect(details["congestion"] == .number((1.0 / 3 * 100).rounded() / 100))
    }

    @Test("the stats line is valid JSON with congestion as a number between 0 and 1")
    func statsLineEncodes() throws {
        let queue = PacketQueue(capacity: 3)
        queue.push(packet(.audio))
        var stats = MediaStats()
        stats.output = queue.snapshot
        let event = HeadlessEvent(time: SessionTime(milliseconds: 1000), side: .publisher, kind: "stats", details: stats.headlessDetails)
        let line = try JSONEncoder().encode(event)
        let object = try #require(try JSONSerialization.jsonObject(with: line) as? [String: Any])
        let details = try #require(object["details"] as? [String: Any])
        let congestion = try #require(details["congestion"] as? Double)
        #expect(congestion == 0.33)
        #expect((0...1).contains(congestion))
        #expect(details["droppedVideoPackets"] as? Int == 0)
    }
}
