import OnAirCore

/// One bitrate sample per second for the sparkline, from a reading the front end takes on its tick.
struct BitrateHistory: Sendable {
    private(set) var samples: [Int] = []
    private var lastSample: SessionTime?
    let length = 60

    mutating func record(_ bitrate: Int, at now: SessionTime) {
        if let last = lastSample, now.since(last) < .seconds(1) { return }
        lastSample = now
        samples.append(bitrate)
        if samples.count > length { samples.removeFirst(samples.count - length) }
    }
}
