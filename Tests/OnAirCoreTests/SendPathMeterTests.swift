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
        #expect(machine.target.videoBitrate == 720_000)
    }
}
