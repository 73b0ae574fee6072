/// The last few hundred latency samples and their percentiles.
///
/// A fixed ring rather than a histogram: at 30 fps, 300 samples are the last ten seconds, which is what an
/// operator watching the dashboard cares about; sorting 300 values per stats pull is cheap.
struct LatencyWindow: Sendable, Equatable {
    private var samples: [Double] = []
    private var next = 0
    let capacity: Int

    init(capacity: Int = 300) {
        self.capacity = capacity
        samples.reserveCapacity(capacity)
    }

    mutating func record(milliseconds: Double) {
        if samples.count < capacity {
            samples.append(milliseconds)
        } else {
            samples[next] = milliseconds
            next = (next + 1) % capacity
        }
    }

    var count: Int { samples.count }

    /// The `fraction` percentile (0.5 = median) by nearest rank, or nil with no samples.
    func percentile(_ fraction: Double) -> Double? {
        guard !samples.isEmpty else { return nil }
        let sorted = samples.sorted()
        let rank = Int((fraction * Double(sorted.count)).rounded(.up)) - 1
        return sorted[min(max(rank, 0), sorted.count - 1)]
    }
}
