import OnAirCore
import OnAirNet

extension OutputGroup {
    /// Why `reconnect N` does nothing now, for the outputs 2…N that refuse it (the one gate reads these).
    public var reconnectRefusals: [Int: String] {
        var refusals: [Int: String] = [:]
        for output in outputs { refusals[output.index] = output.link.reconnectRefusal }
        return refusals
    }

    /// The dashboard's rows as last sampled (once a second), output 1 first; empty before the first sample.
    public var rows: [OutputRow] { rowSample.withLock { $0?.rows ?? [] } }

    /// Samples every output's figures into the dashboard's rows: the sent rate is the bytes its socket took
    /// since the previous sample over the time between them (the first sample shows 0 b/s rather than a
    /// rate over an unknown span).
    func sampleRows(at now: SessionTime) {
        let first = firstStatus
        var bytes = [firstWire.withLock { $0 }?.snapshot.bytesWritten ?? 0]
        var rows = [OutputRow(
            index: 1, host: OutputRow.host(of: firstURL), state: first.state, sentBitsPerSecond: 0,
            queueDepth: fanOut.queues[0].snapshot.depth, reconnects: max(0, first.connections - 1))]
        for output in outputs {
            let link = output.link
            bytes.append(output.wire.snapshot.bytesWritten)
            rows.append(OutputRow(
                index: output.index, host: OutputRow.host(of: output.url), state: link.stateText, sentBitsPerSecond: 0,
                queueDepth: output.queue.snapshot.depth, reconnects: link.reconnects))
        }
        rowSample.withLock { sample in
            if let previous = sample, previous.bytes.count == bytes.count {
                let elapsed = now.milliseconds - previous.at.milliseconds
                for index in rows.indices {
                    rows[index].sentBitsPerSecond = Self.rate(from: previous.bytes[index], to: bytes[index], milliseconds: elapsed)
                }
            }
            sample = (now, bytes, rows)
        }
    }

    /// Bits per second between two byte counts `milliseconds` apart; 0 for no time or a count gone back.
    static func rate(from old: UInt64, to new: UInt64, milliseconds: Int64) -> Int {
        guard milliseconds > 0, new >= old else { return 0 }
        let (bits, overflow) = (new - old).multipliedReportingOverflow(by: 8000)
        return overflow ? Int.max : Int(clamping: bits / UInt64(milliseconds))
    }
}
