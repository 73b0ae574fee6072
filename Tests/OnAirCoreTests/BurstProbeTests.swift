import OnAirCore
import Testing

/// Throughput ABR's burst probe (`AdaptiveBitrate+Burst`), as rows: each step feeds one input and names the
/// actions expected right after it ("burst 300ms", a new target "1912k@30fps", or nothing).
@Suite("Adaptive bitrate: burst probes")
struct BurstProbeTests {
    struct Step: Sendable {
        let input: AdaptiveBitrate.Input
        let expected: [String]
    }

    struct Row: Sendable, CustomTestStringConvertible {
        let name: String
        let configuration: AdaptiveBitrateConfiguration
        let steps: [Step]
        var testDescription: String { name }
    }

    /// A sample at `second`: `delay` ms of standing queue, `kbps` carried (and offered), `path` ms of path queueing.
    static func at(_ second: Double, delay: Int64 = 0, kbps: Int, path: Double, expect: [String] = []) -> Step {
        Step(
            input: .sample(.init(
                time: SessionTime(milliseconds: Int64(second * 1000)), queueDelay: .milliseconds(delay), throughput: kbps * 1000,
                droppedPackets: 0, offered: kbps * 1000, pathQueueing: .microseconds(Int64(path * 1000)))),
            expected: expect)
    }

    static func tick(_ second: Double, expect: [String] = []) -> Step {
        Step(input: .tick(SessionTime(milliseconds: Int64(second * 1000))), expected: expect)
    }

    static let bursting = AdaptiveBitrateConfiguration(
        mode: .throughput, ceiling: 2_500_000, floor: 300_000, throughputHeadroom: 0.85, burstHold: .milliseconds(300))
    static var withoutBursts: AdaptiveBitrateConfiguration {
        var configuration = bursting
        configuration.burstHold = nil
        return configuration
    }

    /// Capacity 1000k (target 850k), a probe to 1275k fails at 5 s (back to 750k), climbs to 850k at 8 s: from
    /// here the backoff (6 s) holds the next probe back until 14 s.
    static let failedProbe: [Step] = [
        at(1, delay: 700, kbps: 1000, path: 40, expect: ["850k@30fps"]), at(3, kbps: 850, path: 40),
        at(4, kbps: 850, path: 40, expect: ["1275k@30fps"]), at(5, delay: 200, kbps: 1000, path: 40, expect: ["750k@30fps"]),
        at(6, kbps: 750, path: 40), at(8, kbps: 750, path: 40, expect: ["850k@30fps"]),
    ]

    static let table: [Row] = [
        Row(name: "a burst goes 2 s after the last change; one that queued at the cap starts no probe, and the backoff releases the next", configuration: bursting, steps: failedProbe + [
            at(9.5, kbps: 850, path: 40), at(10, kbps: 850, path: 40, expect: ["burst 300ms"]), at(11, kbps: 850, path: 60),
            at(13, kbps: 850, path: 40), at(14.5, kbps: 850, path: 40, expect: ["1275k@30fps"]),
        ]),
        Row(name: "a burst that drained without queueing lets the probe go at once, by 1.5², on a path that is not quiet", configuration: bursting, steps: failedProbe + [
            at(10, kbps: 850, path: 6, expect: ["burst 300ms"]), at(11, kbps: 850, path: 6, expect: ["1912k@30fps"]),
        ]),
        Row(name: "a burst is judged once its held media has left (800 ms), on every sample since it was asked", configuration: bursting, steps: failedProbe + [
            at(10, kbps: 850, path: 6, expect: ["burst 300ms"]), at(10.5, kbps: 850, path: 6), at(11, kbps: 850, path: 6, expect: ["1912k@30fps"]),
        ]),
        Row(name: "a burst asked between samples: the queueing of the sample that covered its release fails it, whatever the judging one reads", configuration: bursting, steps: failedProbe + [
            at(9.9, kbps: 850, path: 40), tick(10.3, expect: ["burst 300ms"]), at(11, kbps: 850, path: 60), at(12, kbps: 850, path: 1),
            at(13, kbps: 850, path: 1), tick(14.5, expect: ["1275k@30fps"]),
        ]),
        Row(name: "a burst-started probe that fails doubles the next hold", configuration: bursting, steps: failedProbe + [
            at(10, kbps: 850, path: 6, expect: ["burst 300ms"]), at(11, kbps: 850, path: 6, expect: ["1912k@30fps"]),
            at(12, delay: 200, kbps: 1000, path: 40, expect: ["750k@30fps"]), at(15, kbps: 750, path: 40, expect: ["850k@30fps"]),
            at(16, kbps: 850, path: 40), at(17, kbps: 850, path: 40, expect: ["burst 600ms"]),
        ]),
        Row(name: "no burst while the send queue stands too long for a probe", configuration: bursting, steps: failedProbe + [
            at(10, delay: 60, kbps: 850, path: 6), at(10.5, delay: 60, kbps: 850, path: 6), at(11, delay: 20, kbps: 850, path: 6, expect: ["burst 300ms"]),
        ]),
        Row(name: "a burst 2 s after the failure comes before the climb to the old capacity; passed, it skips the climb", configuration: bursting, steps: failedProbe.dropLast() + [
            at(7, kbps: 750, path: 6, expect: ["burst 300ms"]), at(8, kbps: 750, path: 6, expect: ["1687k@30fps"]),
        ]),
        Row(name: "an owner that cannot hold its sends gets no burst, and the backoff alone releases the probe", configuration: withoutBursts, steps: failedProbe + [
            at(10, kbps: 850, path: 6), at(11, kbps: 850, path: 6), at(13, kbps: 850, path: 6), at(14.5, kbps: 850, path: 6, expect: ["1275k@30fps"]),
        ]),
    ]

    static func describe(_ action: AdaptiveBitrate.Action) -> String {
        switch action {
        case let .retarget(change): change.new.description
        case let .burst(hold): "burst \(hold.wholeMilliseconds)ms"
        }
    }

    @Test("actions follow the table", arguments: table)
    func follows(_ row: Row) {
        var machine = AdaptiveBitrate(row.configuration)
        for (index, step) in row.steps.enumerated() {
            let actions = machine.handle(step.input).map(Self.describe)
            #expect(actions == step.expected, "step \(index)")
        }
    }

    @Test("ladder never bursts")
    func ladderNeverBursts() {
        var configuration = Self.bursting
        configuration.mode = .ladder
        var machine = AdaptiveBitrate(configuration)
        var actions: [String] = []
        for second in 1...120 {
            let capped = machine.target.videoBitrate > 800_000
            let sample = Self.at(Double(second), delay: capped ? 700 : 0, kbps: capped ? 800 : machine.target.videoBitrate / 1000, path: 0.1)
            actions += machine.handle(sample.input).map(Self.describe)
        }
        #expect(!actions.contains { $0.hasPrefix("burst") }, "\(actions)")
    }
}
