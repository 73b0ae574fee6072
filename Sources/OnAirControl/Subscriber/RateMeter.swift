import OnAirCore

/// Bytes and frames counted per second, for the dashboards' "now" figures and the 60 s sparkline.
///
/// The front end calls `add` for each packet and `sample(at:)` on its tick; a second with no packets
/// reads as zero, so a stall shows as a falling line rather than a frozen number.
public struct RateMeter: Sendable, Equatable {
    public private(set) var history: [Int] = []
    public private(set) var bitrate = 0
    public private(set) var framesPerSecond = 0.0
    private var bytes = 0
    private var frames = 0
    private var windowStart: SessionTime?
    private let historyLength: Int

    public init(historyLength: Int = 60) {
        self.historyLength = historyLength
    }

    public mutating func add(bytes count: Int, videoFrame: Bool) {
        bytes += count
        if videoFrame { frames += 1 }
    }

    /// Closes the current window if a second has passed since it opened.
    public mutating func sample(at now: SessionTime) {
        guard let start = windowStart else {
            windowStart = now
            return
        }
        let elapsed = now.milliseconds - start.milliseconds
        guard elapsed >= 1000 else { return }
        bitrate = Int(Int64(bytes) * 8 * 1000 / elapsed)
        framesPerSecond = Double(frames) * 1000 / Double(elapsed)
        history.append(bitrate)
        if history.count > historyLength { history.removeFirst(history.count - historyLength) }
        bytes = 0
        frames = 0
        windowStart = now
    }
}
