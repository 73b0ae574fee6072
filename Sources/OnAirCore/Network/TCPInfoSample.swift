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
    /// `tcpi_data_segs_out` (retransmissions included) and `tcpi_total_retrans`: with `tcpi_unacked` they give
    /// how many segments the peer acknowledged cumulatively, so the size of an average one (nil: not read).
    public var dataSegmentsOut: Int?
    public var totalRetransmits: Int?

    public init(
        bytesAcknowledged: UInt64, notSentBytes: Int, unacknowledgedSegments: Int, sendMSS: Int, smoothedRTTMicroseconds: Int,
        minimumRTTMicroseconds: Int, receiveWindowLimitedMicroseconds: UInt64 = 0, selectivelyAcknowledgedSegments: Int = 0,
        dataSegmentsOut: Int? = nil, totalRetransmits: Int? = nil
    ) {
        self.dataSegmentsOut = dataSegmentsOut.map { max(0, $0) }
        self.totalRetransmits = totalRetransmits.map { max(0, $0) }
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
    /// counted at once. The kernel counts the held ones in segments, not bytes: each is counted at the size
    /// of this connection's average acknowledged segment (at most a full one). Counted full, the small
    /// segments of audio and TLS records after a burst's losses read 588 and 599 kbit/s for two seconds through
    /// a 500 kbit/s tbf (`KernelLinkAdaptiveBitrateTests`, rtmps).
    public var deliveredBytes: UInt64 {
        bytesAcknowledged &+ UInt64(clamping: Int64(selectivelyAcknowledgedSegments) * Int64(heldSegmentSize))
    }

    /// The size a segment held out of order is counted at: the average of those acknowledged so far
    /// (`tcpi_bytes_acked` over the data segments sent once and no longer unacknowledged), at most the MSS;
    /// the MSS when the kernel gave no segment counts.
    var heldSegmentSize: Int {
        guard let dataSegmentsOut, let totalRetransmits else { return sendMSS }
        let acknowledged = dataSegmentsOut - totalRetransmits - unacknowledgedSegments
        guard acknowledged > 0 else { return sendMSS }
        return min(sendMSS, Int(clamping: bytesAcknowledged / UInt64(acknowledged)))
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
