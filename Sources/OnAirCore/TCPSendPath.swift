/// Turns `TCP_INFO` readings of the publisher's connections into the cumulative counters `SendPathMeter`
/// reads: bytes the server acknowledged across every connection of a broadcast (a reconnect starts the
/// kernel's count at zero again), bytes held now, and the path's queueing. Pure: the owner reads the
/// socket and passes each reading with the connection it came from.
public struct TCPSendPath: Sendable, Equatable {
    /// Bytes acknowledged on connections that have ended.
    private var finishedBytes: UInt64 = 0
    /// Time limited by the receiver's window on connections that have ended (µs).
    private var finishedWindowLimited: UInt64 = 0
    private var connection: Int?
    private var latest: TCPInfoSample?

    public init() {}

    /// Takes the newest reading of `connection` (nil: no connection is open now).
    public mutating func update(_ sample: TCPInfoSample?, connection: Int?) {
        if connection != self.connection {
            finishedBytes &+= latest?.bytesAcknowledged ?? 0
            finishedWindowLimited &+= latest?.receiveWindowLimitedMicroseconds ?? 0
            latest = nil
            self.connection = connection
        }
        guard let sample, connection != nil else { return }
        // A counter never goes back on one connection; a reading that does is stale (read before the last).
        if let latest, sample.bytesAcknowledged < latest.bytesAcknowledged { return }
        latest = sample
    }

    /// Bytes the server acknowledged over the whole broadcast: what the wire carried.
    public var acknowledgedBytes: UInt64 { finishedBytes &+ (latest?.bytesAcknowledged ?? 0) }

    /// Bytes the kernel holds unacknowledged now (0 without a connection).
    public var heldBytes: Int { latest?.heldBytes ?? 0 }

    /// The path's queueing now (smoothed round trip above the least); nil when not known.
    public var pathQueueing: Duration? { latest?.pathQueueing }

    /// Time sending waited for the receiver's window, over the whole broadcast.
    public var receiveWindowLimited: Duration {
        .microseconds(Int64(clamping: finishedWindowLimited &+ (latest?.receiveWindowLimitedMicroseconds ?? 0)))
    }

    /// The send path's reading: the wire's counters with the engine's queue (media not yet written) added.
    public func reading(at time: SessionTime, engineQueuedBytes: Int, droppedPackets: Int, offered: Int) -> SendPathMeter.Reading {
        SendPathMeter.Reading(
            time: time, sentBytes: Int(clamping: acknowledgedBytes), queuedBytes: max(0, engineQueuedBytes) + heldBytes,
            droppedPackets: droppedPackets, offered: offered, pathQueueing: pathQueueing, receiveWindowLimited: receiveWindowLimited)
    }
}
