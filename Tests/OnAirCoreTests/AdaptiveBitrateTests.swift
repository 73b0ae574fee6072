import OnAirCore
import Testing

/// The ABR machine on the pure core: each row feeds inputs in order and names the target after each one.
@Suite("Adaptive bitrate")
struct AdaptiveBitrateTests {
    /// One input and the target expected right after it ("-" = unchanged; `nil` = no change expected).
    struct Step: Sendable {
        let input: AdaptiveBitrate.Input
        let expected: String?
    }

    struct Row: Sendable, CustomTestStringConvertible {
        let name: String
        let configuration: AdaptiveBitrateConfiguration
        let steps: [Step]
        var testDescription: String { name }
    }

    /// A sample at `second` with `delay` ms of queued media, `kbps` measured, `drops` counted so far.
    /// A sample at `second` with `delay` ms of standing queue, `kbps` carried, `drops` counted so far and
    /// `offered` kbps from the encoders (the carried rate when not given).
    /// `path`: the most the path's own queues held a packet in the window (ms; nil: not known).
    static func at(
        _ second: Double, delay: Int64 = 0, kbps: Int = 2500, drops: Int = 0, offered: Int? = nil, path: Double? = nil, expect: String? = nil
    ) -> Step {
        Step(
            input: .sample(.init(
                time: SessionTime(milliseconds: Int64(second * 1000)), queueDelay: .milliseconds(delay),
                throughput: kbps * 1000, droppedPackets: drops, offered: (offered ?? kbps) * 1000,
                pathQueueing: path.map { .microseconds(Int64($0 * 1000)) })),
            expected: expect)
    }

    static func tick(_ second: Double, expect: String? = nil) -> Step {
        Step(input: .tick(SessionTime(milliseconds: Int64(second * 1000))), expected: expect)
    }

    static let ladder = AdaptiveBitrateConfiguration(mode: .ladder, ceiling: 2_500_000, floor: 500_000, framesPerSecond: 30)
    /// The rows are worked out with 85 % headroom (the default is 80 %: see `AdaptiveBitrateConfiguration`).
    static let throughput = AdaptiveBitrateConfiguration(mode: .throughput, ceiling: 2_500_000, floor: 300_000, framesPerSecond: 30, throughputHeadroom: 0.85)
    static let throughputWithAudio = AdaptiveBitrateConfiguration(
        mode: .throughput, ceiling: 2_500_000, floor: 300_000, audioBitrate: 128_000, throughputHeadroom: 0.85)
    static var ladderRequiringVideo: AdaptiveBitrateConfiguration {
        var configuration = ladder
        configuration.requireVideo = true
        return configuration
    }

    static let table: [Row] = [
        Row(name: "off never changes the target", configuration: .init(mode: .off, ceiling: 2_500_000), steps: [
            at(1, delay: 5000, kbps: 100, drops: 50), at(10, delay: 9000, kbps: 0, drops: 500), tick(60),
        ]),
        Row(name: "ladder: step down on queue growth, hold while settling, then the next rung", configuration: ladder, steps: [
            at(1, delay: 100), at(2, delay: 800, expect: "1875k@30fps"), at(3, delay: 900), at(4.5, delay: 900, expect: "1250k@30fps"),
        ]),
        Row(name: "a queue that is draining is left to drain, drops or not", configuration: throughput, steps: [
            at(1, delay: 5900, kbps: 370, drops: 40, expect: "314k@30fps"), at(3, delay: 1900, kbps: 730, drops: 60),
            at(4, delay: 800, kbps: 800, drops: 70), at(6, delay: 850, kbps: 800, drops: 70, expect: "300k@30fps"),
        ]),
        Row(name: "ladder: drops alone step down", configuration: ladder, steps: [
            at(1, drops: 0), at(2, drops: 7, expect: "1875k@30fps"), at(5, drops: 7),
        ]),
        Row(name: "ladder: up one rung per quiet interval, never past the ceiling", configuration: ladder, steps: [
            at(1, delay: 800, expect: "1875k@30fps"), at(3, delay: 800, expect: "1250k@30fps"), at(5), tick(12.9),
            tick(13, expect: "1875k@30fps"), tick(22), tick(23, expect: "2500k@30fps"), tick(40), tick(100),
        ]),
        Row(name: "ladder: floor, then the frame rate, then audio-only; back up the same way", configuration: ladder, steps: [
            at(0, delay: 900, expect: "1875k@30fps"), at(2, delay: 900, expect: "1250k@30fps"),
            at(4, delay: 900, expect: "875k@30fps"), at(6, delay: 900, expect: "625k@30fps"),
            at(8, delay: 900, expect: "500k@30fps"), at(10, delay: 900, expect: "500k@15fps"),
            at(12, delay: 900, expect: "audio-only"), at(14, delay: 900),
            tick(24, expect: "500k@15fps"), tick(34, expect: "500k@30fps"), tick(44, expect: "625k@30fps"),
        ]),
        Row(name: "ladder with requireVideo stays at the floor's reduced frame rate", configuration: ladderRequiringVideo, steps: [
            at(0, delay: 900, expect: "1875k@30fps"), at(2, delay: 900, expect: "1250k@30fps"),
            at(4, delay: 900, expect: "875k@30fps"), at(6, delay: 900, expect: "625k@30fps"),
            at(8, delay: 900, expect: "500k@30fps"), at(10, delay: 900, expect: "500k@15fps"),
            at(12, delay: 900), at(20, delay: 900),
        ]),
        Row(name: "throughput: down to the measured rate less headroom; hold while settling; a draining queue is left to drain", configuration: throughput, steps: [
            at(1, delay: 200, kbps: 2500), at(2, delay: 700, kbps: 800, expect: "680k@30fps"), at(3, delay: 900, kbps: 800),
            at(4.5, delay: 600, kbps: 800), at(6, delay: 650, kbps: 800, expect: "578k@30fps"),
        ]),
        Row(name: "throughput: the audio track's share comes off the measured rate", configuration: throughputWithAudio, steps: [
            at(1, delay: 700, kbps: 1000, expect: "722k@30fps"),
        ]),
        Row(name: "throughput: climbs freely to the known capacity's headroom, then probes by half the stream; a probe the link carries raises the capacity", configuration: throughput, steps: [
            at(1, delay: 700, kbps: 1000, expect: "850k@30fps"), at(2, kbps: 1000), at(4, kbps: 1000, drops: 3, expect: "722k@30fps"),
            tick(6.9), tick(7, expect: "850k@30fps"), tick(9.9), tick(10, expect: "1275k@30fps"),
            at(11, kbps: 1000), tick(13), at(13.5, kbps: 1300, expect: "1912k@30fps"),
        ]),
        Row(name: "throughput: a probe fails on a standing queue, goes below where it was to drain, and the next waits twice as long; one that holds resets the wait", configuration: throughput, steps: [
            at(1, delay: 700, kbps: 1000, expect: "850k@30fps"), at(3, kbps: 850), tick(4, expect: "1275k@30fps"),
            at(5, delay: 200, kbps: 1000, expect: "750k@30fps"), at(6, kbps: 900), tick(7.9), tick(8, expect: "850k@30fps"),
            tick(13.9), tick(14, expect: "1275k@30fps"), at(15, kbps: 1300), tick(16.9), tick(17, expect: "1912k@30fps"),
        ]),
        Row(name: "throughput: a probe carried only a hair past the known capacity (an encoder under its target) is released but keeps the backoff: the next waits it out", configuration: throughput, steps: [
            at(1, delay: 700, kbps: 1000, expect: "850k@30fps"), at(3, kbps: 850), tick(4, expect: "1275k@30fps"),
            at(5, delay: 200, kbps: 1000, expect: "750k@30fps"), at(6, kbps: 900), tick(8, expect: "850k@30fps"),
            tick(13.9), tick(14, expect: "1275k@30fps"), at(15, kbps: 1150), tick(16.9), tick(17), tick(19.9),
            tick(20, expect: "1912k@30fps"),
        ]),
        Row(name: "throughput: a lifted cap — the path queued nothing for 2 s, keyframes and all — probes at once by 1.5², past the backoff", configuration: throughput, steps: [
            at(1, delay: 700, kbps: 1000, expect: "850k@30fps"), at(3, kbps: 850), tick(4, expect: "1275k@30fps"),
            at(5, delay: 200, kbps: 1000, expect: "750k@30fps"), at(6, kbps: 900), tick(8, expect: "850k@30fps"),
            at(9, kbps: 850, path: 0.1), at(10, kbps: 850, path: 0.3), at(11, kbps: 850, path: 0.1),
            at(12, kbps: 850, path: 0.1, expect: "1912k@30fps"),
        ]),
        Row(name: "throughput: a probe out while the path turns quiet is held by it, and the next goes at once by 1.5²", configuration: throughput, steps: [
            at(1, delay: 700, kbps: 1000, expect: "850k@30fps"), at(3, kbps: 850), tick(4, expect: "1275k@30fps"),
            at(5, kbps: 1100, path: 0.1), at(6, kbps: 1100, path: 0.2), at(7, kbps: 1100, path: 0.1),
            at(8, kbps: 1100, path: 0.1, expect: "2500k@30fps"),
        ]),
        Row(name: "throughput: a capped path queues at each keyframe, so it is never quiet and the probe waits out its backoff", configuration: throughput, steps: [
            at(1, delay: 700, kbps: 1000, expect: "850k@30fps"), at(3, kbps: 850), tick(4, expect: "1275k@30fps"),
            at(5, delay: 200, kbps: 1000, expect: "750k@30fps"), at(6, kbps: 900), tick(8, expect: "850k@30fps"),
            at(9, kbps: 850, path: 0.1), at(10, kbps: 850, path: 43), at(11, kbps: 850, path: 1), at(12, kbps: 850, path: 1.5),
            at(13, kbps: 850, path: 40), tick(13.9), tick(14, expect: "1275k@30fps"),
        ]),
        Row(name: "throughput: a path with no queueing but a standing send queue is not quiet", configuration: throughput, steps: [
            at(1, delay: 700, kbps: 1000, expect: "850k@30fps"), at(3, kbps: 850), tick(4, expect: "1275k@30fps"),
            at(5, delay: 200, kbps: 1000, expect: "750k@30fps"), at(6, kbps: 900), tick(8, expect: "850k@30fps"),
            at(9, delay: 30, kbps: 850, path: 0.1), at(10, delay: 30, kbps: 850, path: 0.1), at(11, delay: 30, kbps: 850, path: 0.1),
            tick(13.9), tick(14, expect: "1275k@30fps"),
        ]),
        Row(name: "ladder ignores the path's quiet: its rungs keep their quiet interval", configuration: ladder, steps: [
            at(1, delay: 800, expect: "1875k@30fps"), at(2, path: 0.1), at(3, path: 0.1), at(5, path: 0.1), tick(10.9),
            tick(11, expect: "2500k@30fps"),
        ]),
        Row(name: "throughput: a probe fails as soon as the encoders offer more than the link carries", configuration: throughput, steps: [
            at(1, delay: 700, kbps: 1000, expect: "850k@30fps"), at(3, kbps: 850), tick(4, expect: "1275k@30fps"),
            at(5, delay: 20, kbps: 1000, offered: 1250, expect: "840k@30fps"),
        ]),
        Row(name: "throughput: no probe while the last one's queue stands", configuration: throughput, steps: [
            at(1, delay: 700, kbps: 1000, expect: "850k@30fps"), at(3.5, delay: 100, kbps: 850), tick(4), tick(4.4),
            at(4.5, delay: 40, kbps: 850, expect: "1275k@30fps"),
        ]),
        Row(name: "throughput: a probe the wire never carries (a simple picture) proves nothing, and nothing climbs past it", configuration: throughput, steps: [
            at(1, delay: 700, kbps: 1000, expect: "850k@30fps"), at(3, kbps: 850), tick(4, expect: "1275k@30fps"),
            at(5, kbps: 900), tick(8), at(9, kbps: 950), tick(20), tick(60),
        ]),
        Row(name: "throughput: a lossy link's swinging readings — the capacity is the mean of the congested seconds", configuration: throughput, steps: [
            at(1, delay: 900, kbps: 358, expect: "304k@30fps"), at(2, delay: 800, kbps: 1292), at(4, kbps: 700),
            tick(5, expect: "554k@30fps"), tick(8, expect: "701k@30fps"), tick(10.9), tick(11, expect: "1051k@30fps"),
        ]),
        Row(name: "throughput: congestion while measuring more than the target still steps down", configuration: throughput, steps: [
            at(1, delay: 700, kbps: 3000, expect: "2125k@30fps"),
        ]),
        Row(name: "throughput: recovery stops at the operator's ceiling", configuration: throughput, steps: [
            at(1, delay: 700, kbps: 2500, expect: "2125k@30fps"), at(3, kbps: 2100), tick(4, expect: "2500k@30fps"), tick(7), tick(30),
        ]),
        Row(name: "throughput: a dead link goes to the floor, then 15 fps, then audio-only", configuration: throughput, steps: [
            at(1, delay: 900, kbps: 0, expect: "300k@30fps"), at(3, delay: 2000, kbps: 0, expect: "300k@15fps"),
            at(5, delay: 3000, kbps: 0, expect: "audio-only"), at(7, delay: 4000, kbps: 0),
            tick(10, expect: "300k@15fps"), tick(13, expect: "300k@30fps"), at(15, kbps: 400), tick(16, expect: "550k@30fps"),
        ]),
    ]

    @Test("targets follow the table", arguments: table)
    func follows(_ row: Row) {
        var machine = AdaptiveBitrate(row.configuration)
        for (index, step) in row.steps.enumerated() {
            let before = machine.target
            let actions = machine.handle(step.input)
            if let expected = step.expected {
                #expect(machine.target.description == expected, "step \(index)")
                #expect(actions.count == 1, "step \(index): one retarget")
                if case let .retarget(change)? = actions.first {
                    #expect(change.old == before && change.new == machine.target, "step \(index): old and new")
                }
            } else {
                #expect(actions.isEmpty, "step \(index): no change expected, got \(actions)")
                #expect(machine.target == before, "step \(index)")
            }
        }
    }

    @Test("each change names its reason")
    func reasons() {
        var machine = AdaptiveBitrate(Self.ladder)
        let down = machine.handle(Self.at(1, delay: 750).input)
        _ = machine.handle(Self.at(3).input)
        let drops = machine.handle(Self.at(4, drops: 4).input)
        let up = machine.handle(.tick(SessionTime(milliseconds: 14_000)))
        #expect(down == [.retarget(.init(old: Self.ladder.top, new: .init(videoBitrate: 1_875_000, framesPerSecond: 30), reason: .queueDelay(milliseconds: 750)))])
        guard case let .retarget(dropChange)? = drops.first, case let .retarget(upChange)? = up.first else {
            Issue.record("expected two more changes, got \(drops) and \(up)")
            return
        }
        #expect(dropChange.reason == .drops(count: 4))
        #expect(upChange.reason == .quietInterval && upChange.reason.name == "quiet-interval")
        var throughput = AdaptiveBitrate(Self.throughput)
        _ = throughput.handle(Self.at(1, delay: 900, kbps: 1000).input)
        _ = throughput.handle(Self.at(3, kbps: 850).input)
        guard case let .retarget(recovery)? = throughput.handle(.tick(SessionTime(milliseconds: 4000))).first else {
            Issue.record("throughput should recover after its interval")
            return
        }
        #expect(recovery.reason == .recovery)
    }

    @Test("the ceiling and floor are sane whatever the operator passes")
    func bounds() {
        let configuration = AdaptiveBitrateConfiguration(mode: .ladder, ceiling: 400_000, floor: 900_000, ladder: [0.5, 2, -1])
        #expect(configuration.floor == 400_000)
        #expect(configuration.ladder == [1, 0.5])
        var machine = AdaptiveBitrate(configuration)
        _ = machine.handle(Self.at(1, delay: 900).input)
        #expect(machine.target.description == "400k@15fps")
    }
}

extension AdaptiveBitrateConfiguration {
    var top: AdaptiveBitrateTarget { AdaptiveBitrate(self).top }
}
