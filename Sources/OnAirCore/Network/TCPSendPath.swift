/// Turns `TCP_INFO` readings of the publisher's connections into the cumulative counters `SendPathMeter`
/// reads: bytes the server acknowledged across every connection of a broadcast (a reconnect starts the
/// kernel's count at zero again), bytes held now, and the path's queueing. Pure: the owner reads the
/// socket and passes each reading with the connection it came from.
public struct TCPSendPath: Sendable, Equatable {
    /// Bytes delivered on connections that have ended.
    private var finishedBytes: UInt64 = 0
    /// The most the current connection delivered at any reading: out-of-order segments counted in whole
    /// segments may read a little above what the acknowledgement later counts, and a counter never goes back.
    private var currentBytes: UInt64 = 0
    /// Time limited by the receiver's window on connections that have ended (µs).
    private var finishedWindowLimited: UInt64 = 0
    private var connection: Int?
    private var latest: TCPInfoSample?
    /// The newest reading found a connection open.
    private var connected = false

    public init() {}

    /// Takes the newest reading of `connection` (nil: none could be read now). Only a reading of another
    /// connection ends the last one's count: a read that fails once (the loop was busy closing, a reconnect
    /// is under way) must not, or the same connection's bytes are counted twice when it reads again.
    public mutating func update(_ sample: TCPInfoSample?, connection: Int?) {
        guard let sample, let connection else {
            connected = false
            return
        }
        connected = true
        if connection != self.connection {
            finishedBytes &+= currentBytes
            currentBytes = 0
            finishedWindowLimited &+= latest?.receiveWindowLimitedMicroseconds ?? 0
            latest = nil
            self.connection = connection
        }
        // A counter never goes back on one connection; a reading that does is stale (read before the last).
        if let latest, sample.bytesAcknowledged < latest.bytesAcknowledged { return }
        latest = sample
        currentBytes = max(currentBytes, sample.deliveredBytes)
    }

    /// Bytes that crossed to the server over the whole broadcast (acknowledged, or held out of order there):
    /// what the wire carried.
    public var acknowledgedBytes: UInt64 { finishedBytes &+ currentBytes }

    /// Bytes the kernel holds unacknowledged now (0 without a connection).
    public var heldBytes: Int { connected ? latest?.heldBytes ?? 0 : 0 }

    /// The path's queueing now (smoothed round trip above the least); nil when not known.
    public var pathQueueing: Duration? { connected ? latest?.pathQueueing : nil }

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
