import OnAirCore
import Testing

@Suite("Send path meter")
struct SendPathMeterTests {
    static func reading(_ milliseconds: Int64, sent: Int, queued: Int, drops: Int = 0) -> SendPathMeter.Reading {
        .init(time: SessionTime(milliseconds: milliseconds), sentBytes: sent, queuedBytes: queued, droppedPackets: drops)
    }

    @Test("throughput is the bytes sent over the interval; queue delay is the queue at that rate")
    func rateAndDelay() throws {
        var meter = SendPathMeter()
        #expect(meter.sample(Self.reading(0, sent: 0, queued: 0)) == nil)
        let flowingSample = meter.sample(Self.reading(1000, sent: 100_000, queued: 50_000, drops: 3))
        let flowing = try #require(flowingSample)
        #expect(flowing.throughput == 800_000)
        #expect(flowing.queueDelay == .milliseconds(500))
        #expect(flowing.droppedPackets == 3)
        let emptySample = meter.sample(Self.reading(2000, sent: 200_000, queued: 0))
        let empty = try #require(emptySample)
        #expect(empty.queueDelay == .zero)
    }

    @Test("a stalled link: nothing leaves, the delay counts from the last progress and is bounded")
    func stalled() throws {
        var meter = SendPathMeter()
        _ = meter.sample(Self.reading(0, sent: 0, queued: 0))
        _ = meter.sample(Self.reading(1000, sent: 100_000, queued: 10_000))
        let stalledSample = meter.sample(Self.reading(3500, sent: 100_000, queued: 80_000))
        let stalled = try #require(stalledSample)
        #expect(stalled.throughput == 0)
        #expect(stalled.queueDelay == .milliseconds(2500))
        let longSample = meter.sample(Self.reading(120_000, sent: 100_000, queued: 900_000))
        let long = try #require(longSample)
        #expect(long.queueDelay == SendPathMeter.maximumQueueDelay)
    }

    @Test("a reading not later than the last gives no sample")
    func sameInstant() {
        var meter = SendPathMeter()
        _ = meter.sample(Self.reading(1000, sent: 0, queued: 0))
        #expect(meter.sample(Self.reading(1000, sent: 10, queued: 0)) == nil)
    }

    @Test("fed to the machine, a link that carries 800k of a 2500k stream steps the target down to it")
    func drivesTheMachine() throws {
        var meter = SendPathMeter()
        var machine = AdaptiveBitrate(.init(mode: .throughput, ceiling: 2_500_000))
        _ = meter.sample(Self.reading(0, sent: 0, queued: 0))
        // 2500k encoded, 800k leaves: the queue grows by 212 500 bytes a second.
        let measured = meter.sample(Self.reading(1000, sent: 100_000, queued: 212_500))
        let sample = try #require(measured)
        _ = machine.handle(.sample(sample))
        #expect(machine.target.videoBitrate == 640_000, "80 % of the 800k the link carried")
    }

    @Test("a burst the link drains within the window is no standing queue; a queue that never empties is")
    func standingQueue() throws {
        var meter = SendPathMeter()
        _ = meter.sample(Self.reading(0, sent: 0, queued: 0))
        // A 60 KB keyframe lands and drains in 0.3 s: the least queued in the second is 0.
        let readings: [(time: Int64, sent: Int, queued: Int)] = [
            (100, 10_000, 60_000), (200, 40_000, 30_000), (300, 70_000, 0), (400, 73_000, 5_000), (500, 76_000, 0),
            (600, 79_000, 5_000), (700, 82_000, 0), (800, 85_000, 5_000), (900, 88_000, 0),
        ]
        for reading in readings {
            let inside = meter.sample(Self.reading(reading.time, sent: reading.sent, queued: reading.queued))
            #expect(inside == nil)
        }
        let drainedSample = meter.sample(Self.reading(1000, sent: 100_000, queued: 50_000))
        let drained = try #require(drainedSample)
        #expect(drained.queueDelay == .zero, "one reading's 50 KB is a burst, not a standing queue")
        #expect(drained.throughput == 800_000)
        // The next second the queue never goes under 25 KB: 0.25 s at 800 kbit/s.
        for step in 1...9 {
            let queued = 25_000 + step % 3 * 20_000
            let inside = meter.sample(Self.reading(1000 + Int64(step) * 100, sent: 100_000 + step * 10_000, queued: queued))
            #expect(inside == nil)
        }
        let standingSample = meter.sample(Self.reading(2000, sent: 200_000, queued: 60_000))
        let standing = try #require(standingSample)
        #expect(standing.queueDelay == .milliseconds(250))
    }

    @Test("the offered rate is handed on as read")
    func offered() throws {
        var meter = SendPathMeter()
        _ = meter.sample(.init(time: SessionTime(milliseconds: 0), sentBytes: 0, queuedBytes: 0, droppedPackets: 0))
        let measured = meter.sample(.init(
            time: SessionTime(milliseconds: 1000), sentBytes: 100_000, queuedBytes: 0, droppedPackets: 0, offered: 1_250_000))
        let sample = try #require(measured)
        #expect(sample.offered == 1_250_000)
    }
}
