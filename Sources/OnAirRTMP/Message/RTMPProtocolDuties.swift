/// What the RTMP protocol obliges either end of a connection to do by itself, as a value: acknowledge the
/// bytes received once the peer's window is full (RTMP spec §5.4.3, §5.4.4) and answer a ping (§7.1.7).
///
/// The client and the relay feed it the same way — every protocol-control message they read, every byte
/// count they want acknowledged — and send what it returns, so neither hand-writes the bookkeeping. The
/// peer's Set Chunk Size and Abort (§5.4.1, §5.4.2) are not here: they change how the very next chunk parses,
/// so ``RTMPChunkDecoder`` applies them itself. Which bytes count is the owner's choice (the client counts
/// the chunk stream after the handshake, as nginx-rtmp and FFmpeg do; the relay counts every byte).
public struct RTMPProtocolDuties: Sendable, Equatable {
    /// The peer's Window Acknowledgement Size; 0 until it sends one (no acknowledgements are owed then).
    public private(set) var peerWindow: UInt32 = 0
    /// Bytes counted so far (saturating).
    public private(set) var bytesReceived: UInt64 = 0
    /// `bytesReceived` when the last acknowledgement was due.
    public private(set) var bytesAcknowledged: UInt64 = 0

    public init() {}

    /// Notes what `message` obliges and returns the answer to send at once, if it needs one.
    public mutating func handle(_ message: RTMPMessage) -> RTMPMessage? {
        switch message {
        case .windowAcknowledgementSize(let size):
            peerWindow = size
            return nil
        case .userControl(.pingRequest(let timestamp)):
            return .userControl(.pingResponse(timestamp: timestamp))
        default:
            return nil
        }
    }

    /// Counts bytes read from the peer; ask ``acknowledgementDue()`` once what they held is handled.
    public mutating func received(byteCount: Int) {
        let (sum, overflow) = bytesReceived.addingReportingOverflow(UInt64(max(0, byteCount)))
        bytesReceived = overflow ? .max : sum
    }

    /// The Acknowledgement to send now, when a full window has been received since the last one; its
    /// sequence number is the byte count modulo 2³² (§5.4.3 leaves wrap-around to the 32-bit field).
    public mutating func acknowledgementDue() -> RTMPMessage? {
        guard peerWindow > 0, bytesReceived - bytesAcknowledged >= UInt64(peerWindow) else { return nil }
        bytesAcknowledged = bytesReceived
        return .acknowledgement(sequenceNumber: UInt32(truncatingIfNeeded: bytesReceived))
    }
}
