/// The server's own word on what it read, against the kernel's: a cross-check of TCP_INFO (issue 23).
///
/// An RTMP server acknowledges each window of bytes it has read from the chunk stream (RTMP spec §5.4.3,
/// Acknowledgement, after the Window Acknowledgement Size the client announced, §5.4.4) — Moblin reads
/// these as its only measure. TCP_INFO's `tcpi_bytes_acked` counts what the *kernel* at the other end
/// acknowledged: the same bytes plus the handshake and any TLS overhead, and never fewer than the server
/// read. The two disagree when something between acknowledges for the server (a proxy, a middlebox, OnAir's
/// own stage), or when the server stops reading what its kernel took: then the kernel's figure is not what
/// the server received, and the publisher says so with a `warning`.
///
/// A pure value: the owner feeds each Acknowledgement's sequence number and asks for a verdict with the
/// connection's TCP figure. The 32-bit sequence number wraps (§5.4.3); it is unwrapped into a running count.
public struct RTMPAcknowledgementCheck: Sendable, Equatable {
    /// The comparison of one TCP reading with the newest Acknowledgement.
    public struct Verdict: Sendable, Equatable {
        /// Bytes of the chunk stream the server said it read (its newest Acknowledgement, unwrapped).
        public var serverRead: UInt64
        /// Bytes the kernel says the server's TCP acknowledged on this connection.
        public var tcpDelivered: UInt64
        /// `tcpDelivered − serverRead`: negative when the server read more than TCP says crossed.
        public var gap: Int64
        /// Beyond the bound either way.
        public var disagrees: Bool
    }

    /// The window announced to the server: it owes an Acknowledgement after each this many bytes.
    public let window: UInt64
    /// What TCP may count beyond the server's acknowledged bytes without a disagreement, on top of one
    /// window (the server acknowledges only once a whole window was read): the RTMP handshake (3073 bytes
    /// from the client), a TLS handshake and record overhead, and what the server's kernel took while the
    /// Acknowledgement was on its way back.
    public let slack: UInt64
    /// The newest Acknowledgement, unwrapped; nil until one arrives.
    public private(set) var serverRead: UInt64?
    private var lastSequence: UInt32?

    public init(window: UInt32, slack: UInt64 = 512 << 10) {
        self.window = UInt64(window)
        self.slack = slack
    }

    /// The check as it stands after Acknowledgements up to `serverRead` bytes, the last numbered
    /// `lastSequence`: where a long hostile session would have brought it (tests start there).
    init(window: UInt32, slack: UInt64 = 512 << 10, serverRead: UInt64, lastSequence: UInt32) {
        self.init(window: window, slack: slack)
        self.serverRead = serverRead
        self.lastSequence = lastSequence
    }

    /// Notes an Acknowledgement's sequence number. One lower than the last is the 32-bit field wrapping
    /// (a server never acknowledges fewer bytes than before). The count saturates: a hostile server whose
    /// numbers step back by one adds almost 2³² each time, and 2³² such 5-byte messages overflowed `+`.
    public mutating func acknowledged(sequence: UInt32) {
        guard let last = lastSequence, let read = serverRead else {
            lastSequence = sequence
            serverRead = UInt64(sequence)
            return
        }
        let step = UInt64(sequence &- last)
        lastSequence = sequence
        let (sum, overflow) = read.addingReportingOverflow(step)
        serverRead = overflow ? .max : sum
    }

    /// The verdict for the connection's TCP figure now; nil before the first Acknowledgement. TCP counts at
    /// least what the server read (less is a TCP figure that undercounts, beyond `slack`'s rounding) and at
    /// most a window and `slack` more (more is bytes the kernel's peer took that the server never read).
    public func verdict(tcpDelivered: UInt64) -> Verdict? {
        guard let serverRead else { return nil }
        let gap = Int64(clamping: tcpDelivered) - Int64(clamping: serverRead)
        let disagrees = gap < -Int64(clamping: slack) || gap > Int64(clamping: window + slack)
        return Verdict(serverRead: serverRead, tcpDelivered: tcpDelivered, gap: gap, disagrees: disagrees)
    }
}
