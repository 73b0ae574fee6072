import OnAirCore
import OnAirNet

extension OutputGroup {
    /// Why `reconnect N` does nothing now, for the outputs 2…N that refuse it (the one gate reads these).
    public var reconnectRefusals: [Int: String] {
        var refusals: [Int: String] = [:]
        let held = stopped.withLock { $0 }
        for output in outputs {
            refusals[output.index] = held.contains(output.index)
                ? "output \(output.index) is stopped (output-start \(output.index) puts it back)" : output.link.reconnectRefusal
        }
        return refusals
    }

    /// The dashboard's rows as last sampled (once a second), output 1 first; empty before the first sample.
    public var rows: [OutputRow] { rowSample.withLock { $0?.rows ?? [] } }

    /// Samples every output's figures into the dashboard's rows. The sent rate is what the server's TCP
    /// acknowledged (`TCP_INFO` of the output's own connection, as the publisher's `bitrate`), not what its
    /// socket took: a stalled server's socket takes bytes for seconds that never cross. The first sample, a
    /// new connection or no connection shows 0 b/s rather than a rate over an unknown span.
    func sampleRows() async {
        var probes = [firstProbe.withLock { $0 }]
        let first = firstStatus
        var rows = [OutputRow(
            index: 1, host: OutputRow.host(of: firstURL), state: first.state, sentBitsPerSecond: 0,
            queueDepth: fanOut.queues[0].snapshot.depth, reconnects: max(0, first.connections - 1))]
        for output in outputs {
            let link = output.link
            probes.append(output.probe)
            rows.append(OutputRow(
                index: output.index, host: OutputRow.host(of: output.url), state: stateText(output), sentBitsPerSecond: 0,
                queueDepth: output.queue.snapshot.depth, reconnects: link.reconnects))
        }
        var delivered: [DeliveredReading?] = []
        for probe in probes {
            let read = await probe?.read()
            delivered.append(read.map { DeliveredReading(connection: $0.connection, bytes: $0.sample.deliveredBytes, at: $0.at) })
        }
        let focused = focusedOutput
        for index in rows.indices { rows[index].focused = rows[index].index == focused }
        rowSample.withLock { sample in
            if let previous = sample?.delivered, previous.count == delivered.count {
                for index in rows.indices {
                    guard let old = previous[index], let new = delivered[index], old.connection == new.connection else { continue }
                    let elapsed = new.at - old.at
                    let milliseconds = elapsed.components.seconds * 1000 + elapsed.components.attoseconds / 1_000_000_000_000_000
                    rows[index].sentBitsPerSecond = Self.rate(from: old.bytes, to: new.bytes, milliseconds: milliseconds)
                }
            }
            sample = (delivered, rows)
        }
    }

    /// Bits per second between two byte counts `milliseconds` apart; 0 for no time or a count gone back.
    static func rate(from old: UInt64, to new: UInt64, milliseconds: Int64) -> Int {
        guard milliseconds > 0, new >= old else { return 0 }
        let (bits, overflow) = (new - old).multipliedReportingOverflow(by: 8000)
        return overflow ? Int.max : Int(clamping: bits / UInt64(milliseconds))
    }
}

/// What one output's connection had delivered at an instant (the kernel's clock of the read).
struct DeliveredReading: Sendable {
    var connection: Int
    var bytes: UInt64
    var at: ContinuousClock.Instant
}
