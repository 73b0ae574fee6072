/// One reading of the kernel's `TCP_INFO` for the publisher's connection to the server (rtmp:// and
/// rtmps://: TLS runs over the same TCP connection): what the wire truly carried, as the kernel counts it.
///
/// Why the kernel's counters and not the bytes our socket took: a write completes when the kernel copies
/// it, and the kernel may hold seconds of media unsent or in flight before a slow link carries it (make
/// bench, abr: "sent" read 930–990 kbit/s for seconds through an 800 kbit/s cap). `tcpi_bytes_acked` is what
/// the server's TCP acknowledged: never more than the link carried.
///
/// Field names follow `struct tcp_info` (linux/tcp.h); zero means the kernel did not fill it (older kernels).
public struct TCPInfoSample: Sendable, Equatable, Codable {
    /// `tcpi_bytes_acked`: bytes the peer acknowledged since the connection opened (RFC 4898
    /// tcpEStatsAppHCThruOctetsAcked; the SYN counts one).
    public var bytesAcknowledged: UInt64
    /// `tcpi_sacked`: segments the peer holds out of order (selectively acknowledged): they crossed the
    /// link, and are acknowledged cumulatively only once the segment before them is repaired.
    public var selectivelyAcknowledgedSegments: Int
    /// `tcpi_notsent_bytes`: bytes written to the socket and not sent yet.
    public var notSentBytes: Int
    /// `tcpi_unacked`: segments sent and not yet acknowledged (the ones in the network's queues among them).
    public var unacknowledgedSegments: Int
    /// `tcpi_snd_mss`: bytes a segment carries at most.
    public var sendMSS: Int
    /// `tcpi_rtt`: the smoothed round trip (µs).
    public var smoothedRTTMicroseconds: Int
    /// `tcpi_min_rtt`: the least round trip seen (µs): the path with empty queues.
    public var minimumRTTMicroseconds: Int
    /// `tcpi_rwnd_limited`: time (µs, cumulative) sending waited for the receiver's window — a slow reader
    /// (OnAir's own link stage holds its window closed to cap a link) rather than a slow network.
    public var receiveWindowLimitedMicroseconds: UInt64

    public init(
        bytesAcknowledged: UInt64, notSentBytes: Int, unacknowledgedSegments: Int, sendMSS: Int, smoothedRTTMicroseconds: Int,
        minimumRTTMicroseconds: Int, receiveWindowLimitedMicroseconds: UInt64 = 0, selectivelyAcknowledgedSegments: Int = 0
    ) {
        self.bytesAcknowledged = bytesAcknowledged
        self.selectivelyAcknowledgedSegments = max(0, selectivelyAcknowledgedSegments)
        self.notSentBytes = max(0, notSentBytes)
        self.unacknowledgedSegments = max(0, unacknowledgedSegments)
        self.sendMSS = max(0, sendMSS)
        self.smoothedRTTMicroseconds = max(0, smoothedRTTMicroseconds)
        self.minimumRTTMicroseconds = max(0, minimumRTTMicroseconds)
        self.receiveWindowLimitedMicroseconds = receiveWindowLimitedMicroseconds
    }

    /// Bytes that crossed the link: acknowledged, plus those held out of order at the server. Counting the
    /// cumulative acknowledgement alone, a loss repaired after a second showed as a second of nothing and then
    /// a second at 1.86 Mbit/s through a 500 kbit/s tbf cap: bytes that had crossed earlier
    /// counted at once.
    public var deliveredBytes: UInt64 {
        bytesAcknowledged &+ UInt64(clamping: Int64(selectivelyAcknowledgedSegments) * Int64(sendMSS))
    }

    /// Bytes the kernel holds that the server has not acknowledged: unsent, plus in flight. In flight is
    /// counted in whole segments (`tcpi_unacked` × `tcpi_snd_mss`): at most one segment's worth high per
    /// small packet, never low. (`bytes_sent − bytes_retrans − bytes_acked` read 35 KB too high for good after
    /// losses on a capped veth link, so it is not used.)
    public var heldBytes: Int {
        notSentBytes + Int(clamping: Int64(unacknowledgedSegments) * Int64(sendMSS))
    }

    /// How long the path's queues hold a packet now: the smoothed round trip above the least one seen; nil
    /// when the kernel gave no round trip yet.
    public var pathQueueing: Duration? {
        guard smoothedRTTMicroseconds > 0, minimumRTTMicroseconds > 0 else { return nil }
        return .microseconds(max(0, smoothedRTTMicroseconds - minimumRTTMicroseconds))
    }
}
