import Foundation
import OnAirCore
import Testing

/// TCP_INFO readings → the send path's throughput, standing queue and path queueing, on samples recorded
/// from the kernel through a real capped link (Fixtures/tcp-info-tbf-800k.json: a veth with `tc tbf rate
/// 800kbit burst 8kb limit 100kb`; 1.2 Mbit/s offered for 3 s, then 500 kbit/s; the cap lifted at ~14.5 s).
@Suite("TCP_INFO → what the wire carried")
struct TCPSendPathTests {
    struct Recording: Decodable {
        struct Reading: Decodable {
            let ms: Int64
            let sample: TCPInfoSample

            init(from decoder: any Decoder) throws {
                ms = try decoder.container(keyedBy: Key.self).decode(Int64.self, forKey: .ms)
                sample = try TCPInfoSample(from: decoder)
            }

            enum Key: String, CodingKey { case ms }
        }

        let samples: [Reading]
    }

    static func recording() throws -> [Recording.Reading] {
        let url = try #require(Bundle.module.url(forResource: "tcp-info-tbf-800k", withExtension: "json", subdirectory: "Fixtures"))
        return try JSONDecoder().decode(Recording.self, from: Data(contentsOf: url)).samples
    }

    /// The recording through `TCPSendPath` and `SendPathMeter` as the publisher runs them: one sample a second.
    static func windows() throws -> [AdaptiveBitrate.Sample] {
        var path = TCPSendPath()
        var meter = SendPathMeter()
        var samples: [AdaptiveBitrate.Sample] = []
        for reading in try recording() {
            path.update(reading.sample, connection: 1)
            if let sample = meter.sample(path.reading(at: SessionTime(milliseconds: reading.ms), engineQueuedBytes: 0, droppedPackets: 0, offered: 0)) {
                samples.append(sample)
            }
        }
        return samples
    }

    @Test("through the 800k cap every second carries what the link carries: never past the cap and its 8 kB burst, at least 85 % of it while a backlog waits")
    func throughputIsTheCap() throws {
        let capped = try Self.windows().filter { $0.time.milliseconds < 12_000 }
        #expect(capped.count >= 10)
        for window in capped {
            #expect(window.throughput <= 800_000 + 64_000, "\(window.time.milliseconds) ms: \(window.throughput)")
            #expect(window.throughput >= 680_000, "\(window.time.milliseconds) ms: \(window.throughput)")
        }
    }

    @Test("the backlog of 1.2 Mbit/s into 800k stands for seconds (over 500 ms: congestion), and reads 0 once drained and after the lift")
    func standingQueue() throws {
        let windows = try Self.windows()
        let backlog = windows.filter { (3_000..<9_000).contains($0.time.milliseconds) }
        #expect(!backlog.isEmpty && backlog.allSatisfy { $0.queueDelay > .milliseconds(500) }, "\(backlog.map(\.queueDelay))")
        let after = windows.filter { $0.time.milliseconds >= 15_500 }
        #expect(!after.isEmpty && after.allSatisfy { $0.queueDelay == .zero }, "\(after.map(\.queueDelay))")
    }

    @Test("path queueing: hundreds of ms under the cap's backlog, a keyframe's tens of ms under the cap, under 2 ms in every second after the lift")
    func pathQueueing() throws {
        let windows = try Self.windows()
        for window in windows where window.time.milliseconds < 9_000 {
            #expect((window.pathQueueing ?? .zero) > .milliseconds(100), "\(window.time.milliseconds) ms: \(String(describing: window.pathQueueing))")
        }
        let underCapNoBacklog = windows.filter { (12_000..<14_500).contains($0.time.milliseconds) }
        #expect(underCapNoBacklog.contains { ($0.pathQueueing ?? .zero) >= .milliseconds(2) }, "the cap's keyframes never queued: \(underCapNoBacklog)")
        let lifted = windows.filter { $0.time.milliseconds >= 16_500 }
        #expect(!lifted.isEmpty && lifted.allSatisfy { ($0.pathQueueing ?? .seconds(1)) < .milliseconds(2) }, "\(lifted.map(\.pathQueueing))")
    }

    static func sample(acked: UInt64, sacked: Int = 0, notSent: Int = 0, unacked: Int = 0, rtt: Int = 0, minRTT: Int = 0) -> TCPInfoSample {
        TCPInfoSample(
            bytesAcknowledged: acked, notSentBytes: notSent, unacknowledgedSegments: unacked, sendMSS: 1448,
            smoothedRTTMicroseconds: rtt, minimumRTTMicroseconds: minRTT, selectivelyAcknowledgedSegments: sacked)
    }

    @Test("one sample: held is unsent plus whole segments in flight; delivered counts out-of-order segments; path queueing is srtt above the least")
    func oneSample() {
        let sample = Self.sample(acked: 10_000, sacked: 2, notSent: 500, unacked: 3, rtt: 45_000, minRTT: 5_000)
        #expect(sample.heldBytes == 500 + 3 * 1448)
        #expect(sample.deliveredBytes == 10_000 + 2 * 1448)
        #expect(sample.pathQueueing == .milliseconds(40))
        #expect(Self.sample(acked: 1).pathQueueing == nil)
    }

    struct HeldRow: Sendable, CustomTestStringConvertible {
        let acked: UInt64, sent: Int, retransmits: Int, unacked: Int, sacked: Int, delivered: UInt64
        var testDescription: String { "acked \(acked) in \(sent - retransmits - unacked) segments, \(sacked) held → \(delivered)" }
    }

    @Test("segments held out of order count at the average acknowledged segment's size, never above the MSS", arguments: [
        // 200 segments acknowledged carried 100 000 bytes (500 each: audio, TLS records): 40 held count 500 each.
        HeldRow(acked: 100_000, sent: 260, retransmits: 10, unacked: 50, sacked: 40, delivered: 100_000 + 40 * 500),
        // Full segments: the MSS.
        HeldRow(acked: 289_600, sent: 260, retransmits: 10, unacked: 50, sacked: 40, delivered: 289_600 + 40 * 1448),
        // An average above the MSS (the SYN's byte, rounding) is held to it.
        HeldRow(acked: 400_000, sent: 260, retransmits: 10, unacked: 50, sacked: 40, delivered: 400_000 + 40 * 1448),
        // No segment acknowledged yet (or counters wrapped): the MSS, as when the kernel gives no counts.
        HeldRow(acked: 1, sent: 50, retransmits: 0, unacked: 50, sacked: 10, delivered: 1 + 10 * 1448),
        HeldRow(acked: 1_000, sent: 10, retransmits: 30, unacked: 5, sacked: 2, delivered: 1_000 + 2 * 1448),
    ])
    func heldSegmentsAtAverageSize(row: HeldRow) {
        let sample = TCPInfoSample(
            bytesAcknowledged: row.acked, notSentBytes: 0, unacknowledgedSegments: row.unacked, sendMSS: 1448, smoothedRTTMicroseconds: 0,
            minimumRTTMicroseconds: 0, selectivelyAcknowledgedSegments: row.sacked, dataSegmentsOut: row.sent, totalRetransmits: row.retransmits)
        #expect(sample.deliveredBytes == row.delivered)
    }

    struct Step: Sendable {
        let sample: TCPInfoSample?
        let connection: Int?
        let acknowledged: UInt64
        let held: Int
    }

    static let sequences: [(String, [Step])] = [
        ("a reconnect starts the kernel's count at zero: the broadcast's count goes on from where it was", [
            Step(sample: sample(acked: 1_000), connection: 1, acknowledged: 1_000, held: 0),
            Step(sample: sample(acked: 5_000, notSent: 100), connection: 1, acknowledged: 5_000, held: 100),
            Step(sample: sample(acked: 200), connection: 2, acknowledged: 5_200, held: 0),
        ]),
        ("a read that fails once does not end the connection's count (no double count when it reads again)", [
            Step(sample: sample(acked: 5_000, notSent: 300), connection: 1, acknowledged: 5_000, held: 300),
            Step(sample: nil, connection: nil, acknowledged: 5_000, held: 0),
            Step(sample: sample(acked: 6_000), connection: 1, acknowledged: 6_000, held: 0),
        ]),
        ("a counter never goes back: a stale reading changes nothing", [
            Step(sample: sample(acked: 5_000), connection: 1, acknowledged: 5_000, held: 0),
            Step(sample: sample(acked: 4_000, notSent: 9_000), connection: 1, acknowledged: 5_000, held: 0),
        ]),
        ("segments repaired after a loss: delivered never counts the out-of-order ones twice", [
            Step(sample: sample(acked: 5_000, sacked: 3), connection: 1, acknowledged: 5_000 + 3 * 1448, held: 0),
            Step(sample: sample(acked: 5_000 + 3 * 1448 + 1_448), connection: 1, acknowledged: 5_000 + 4 * 1448, held: 0),
        ]),
    ]

    @Test("across connections and failed reads", arguments: sequences.indices)
    func acrossConnections(_ index: Int) {
        let (name, steps) = Self.sequences[index]
        var path = TCPSendPath()
        for (number, step) in steps.enumerated() {
            path.update(step.sample, connection: step.connection)
            #expect(path.acknowledgedBytes == step.acknowledged, "\(name), step \(number + 1)")
            #expect(path.heldBytes == step.held, "\(name), step \(number + 1)")
        }
    }
}
