/// Turns the send path's counters into the `AdaptiveBitrate.Sample` the machine reads: what the wire carried
/// over the last window, and the standing queue: how long the least media that waited at any reading in the
/// window takes to leave at that rate.
///
/// Why the least: a keyframe is a burst (60 KB at 1080p, 0.6 s of an 800 kbit/s link) that a link with room
/// drains within the window; a queue that never empties across a whole window is one the link cannot keep up
/// with. CoDel (RFC 8289 §3.2) judges a queue by its minimum sojourn over an interval for the same reason; a
/// single reading per window saw keyframe bursts as congestion. The owner reads the counters every
/// `pollInterval`; a sample comes out once per `window`.
///
/// A pure value fed cumulative counters (bytes the server acknowledged, bytes waiting now, congestion drops),
/// so every figure it hands on is a difference of two measurements, never a guess from the configuration.
public struct SendPathMeter: Sendable, Equatable {
    /// What the send path counted at one instant.
    public struct Reading: Sendable, Equatable {
        public var time: SessionTime
        /// Bytes that left (the server acknowledged them) since the start (a counter).
        public var sentBytes: Int
        /// Bytes encoded and not yet acknowledged, now.
        public var queuedBytes: Int
        /// Packets the queue dropped for congestion since the start (a counter).
        public var droppedPackets: Int
        /// bit/s the encoders produced over the last second, as the engine measured it (0: not known).
        public var offered: Int
        /// How long the path's queues hold a packet now (`TCPInfoSample.pathQueueing`); nil: not known.
        public var pathQueueing: Duration?
        /// Time sending waited for the receiver's window since the start (a counter).
        public var receiveWindowLimited: Duration

        public init(
            time: SessionTime, sentBytes: Int, queuedBytes: Int, droppedPackets: Int, offered: Int = 0, pathQueueing: Duration? = nil,
            receiveWindowLimited: Duration = .zero
        ) {
            self.time = time
            self.sentBytes = sentBytes
            self.queuedBytes = queuedBytes
            self.droppedPackets = droppedPackets
            self.offered = offered
            self.pathQueueing = pathQueueing
            self.receiveWindowLimited = receiveWindowLimited
        }
    }

    /// The most queue delay reported: past this the link is as good as down and the figure only grows.
    public static let maximumQueueDelay = Duration.seconds(60)
    /// How often the owner reads the counters: often enough that a burst the link drains is seen empty.
    public static let pollInterval = Duration.milliseconds(100)

    /// One sample per this much time.
    public let window: Duration
    /// The reading that closed the last window (the next window's rate starts there).
    private var windowStart: Reading?
    /// The least queued bytes read since `windowStart`.
    private var leastQueued: Int?
    /// The most path queueing read since `windowStart` (nil: none known).
    private var mostPathQueueing: Duration?
    private var previous: Reading?
    /// When the queue last drained completely or bytes last left: a stalled link's delay counts from here.
    private var lastProgress: SessionTime?

    public init(window: Duration = .seconds(1)) {
        self.window = window
    }

    /// Takes one reading; returns the window's sample once `window` has passed since the last one (nil for the
    /// first reading, a reading not later than the last, and readings inside a window).
    public mutating func sample(_ reading: Reading) -> AdaptiveBitrate.Sample? {
        guard let start = windowStart, let previous, reading.time > previous.time else {
            if windowStart == nil {
                windowStart = reading
                lastProgress = reading.time
                previous = reading
            }
            return nil
        }
        self.previous = reading
        if reading.sentBytes > previous.sentBytes || reading.queuedBytes == 0 { lastProgress = reading.time }
        let least = min(leastQueued ?? reading.queuedBytes, reading.queuedBytes)
        let most = [mostPathQueueing, reading.pathQueueing].compactMap { $0 }.max()
        guard reading.time.since(start.time) >= window else {
            leastQueued = least
            mostPathQueueing = most
            return nil
        }
        windowStart = reading
        leastQueued = nil
        mostPathQueueing = nil
        // Time the receiver's window held the sender back is queueing too, of a reader's making (a stage).
        let windowLimited = reading.receiveWindowLimited - start.receiveWindowLimited
        let pathQueueing = most.map { max($0, windowLimited) } ?? (windowLimited > .zero ? windowLimited : nil)
        let elapsed = reading.time.milliseconds - start.time.milliseconds
        let sent = max(0, reading.sentBytes - start.sentBytes)
        let throughput = Int(min(Double(Int32.max), Double(sent) * 8000 / Double(elapsed)))
        let delay: Duration
        if least == 0 {
            delay = .zero
        } else if throughput > 0 {
            delay = .milliseconds(Int64(min(Double(Self.maximumQueueDelay.wholeMilliseconds), Double(least) * 8000 / Double(throughput))))
        } else {
            delay = min(Self.maximumQueueDelay, reading.time.since(lastProgress ?? start.time))
        }
        return AdaptiveBitrate.Sample(
            time: reading.time, queueDelay: delay, throughput: throughput, droppedPackets: reading.droppedPackets, offered: reading.offered,
            pathQueueing: pathQueueing)
    }
}
