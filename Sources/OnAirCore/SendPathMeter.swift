/// Turns the send path's counters into the `AdaptiveBitrate.Sample` the machine reads: what the wire carried
/// since the last reading, and how long what waits in the send queue will take to leave at that rate.
///
/// A pure value fed cumulative counters (bytes written to the socket, bytes queued now, congestion drops),
/// so every figure it hands on is a difference of two measurements, never a guess from the configuration.
public struct SendPathMeter: Sendable, Equatable {
    /// What the send path counted at one instant.
    public struct Reading: Sendable, Equatable {
        public var time: SessionTime
        /// Bytes written to the connection since the start (a counter).
        public var sentBytes: Int
        /// Bytes encoded and waiting to be sent, now.
        public var queuedBytes: Int
        /// Packets the queue dropped for congestion since the start (a counter).
        public var droppedPackets: Int

        public init(time: SessionTime, sentBytes: Int, queuedBytes: Int, droppedPackets: Int) {
            self.time = time
            self.sentBytes = sentBytes
            self.queuedBytes = queuedBytes
            self.droppedPackets = droppedPackets
        }
    }

    /// The most queue delay reported: past this the link is as good as down and the figure only grows.
    public static let maximumQueueDelay = Duration.seconds(60)

    private var previous: Reading?
    /// When the queue last drained completely or bytes last left: a stalled link's delay counts from here.
    private var lastProgress: SessionTime?

    public init() {}

    /// The sample for `reading`; nil for the first reading (a rate needs two) or one not later than the last.
    public mutating func sample(_ reading: Reading) -> AdaptiveBitrate.Sample? {
        defer { previous = reading }
        guard let previous, reading.time > previous.time else {
            if previous == nil { lastProgress = reading.time }
            return nil
        }
        let elapsed = reading.time.milliseconds - previous.time.milliseconds
        let sent = max(0, reading.sentBytes - previous.sentBytes)
        let throughput = Int(min(Double(Int32.max), Double(sent) * 8000 / Double(elapsed)))
        if sent > 0 || reading.queuedBytes == 0 { lastProgress = reading.time }
        let delay: Duration
        if reading.queuedBytes == 0 {
            delay = .zero
        } else if throughput > 0 {
            delay = .milliseconds(Int64(min(Double(Self.maximumQueueDelay.wholeMilliseconds), Double(reading.queuedBytes) * 8000 / Double(throughput))))
        } else {
            delay = min(Self.maximumQueueDelay, reading.time.since(lastProgress ?? previous.time))
        }
        return AdaptiveBitrate.Sample(time: reading.time, queueDelay: delay, throughput: throughput, droppedPackets: reading.droppedPackets)
    }
}
