/// Turns cumulative counters (bytes and video frames the socket took) into the dashboard's "now" figures
/// and its 60 s sparkline. Pure: the owner samples the counters on its tick and passes the time.
///
/// The rate is taken over the last second of samples, so when nothing is written it reads 0 within a
/// second of the last write (plus one tick), never a frozen last value.
public struct WireRateMeter: Sendable, Equatable {
    private struct Sample: Sendable, Equatable {
        var time: SessionTime
        var bytes: UInt64
        var frames: UInt64
    }

    public private(set) var bitrate = 0
    public private(set) var framesPerSecond = 0.0
    /// One bitrate per second, oldest first.
    public private(set) var history: [Int] = []
    private var samples: [Sample] = []
    private var lastHistoryAt: SessionTime?
    private let historyLength: Int
    private let window: Duration

    public init(historyLength: Int = 60, window: Duration = .seconds(1)) {
        self.historyLength = historyLength
        self.window = window
    }

    public mutating func sample(bytes: UInt64, frames: UInt64, at now: SessionTime) {
        samples.append(Sample(time: now, bytes: bytes, frames: frames))
        // Keep the newest sample at least a window old as the base, and everything after it.
        while samples.count > 2, now.since(samples[1].time) >= window { samples.removeFirst() }
        let base = samples[0]
        let elapsed = now.milliseconds - base.time.milliseconds
        if elapsed > 0, bytes >= base.bytes, frames >= base.frames {
            bitrate = Int(min(UInt64(Int.max / 8000), bytes - base.bytes) * 8000 / UInt64(elapsed))
            framesPerSecond = Double(frames - base.frames) * 1000 / Double(elapsed)
        } else {
            bitrate = 0
            framesPerSecond = 0
        }
        if let last = lastHistoryAt, now.since(last) < .seconds(1) { return }
        lastHistoryAt = now
        history.append(bitrate)
        if history.count > historyLength { history.removeFirst(history.count - historyLength) }
    }
}
