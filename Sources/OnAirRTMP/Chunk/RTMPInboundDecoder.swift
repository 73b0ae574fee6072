import NIOCore

/// Everything one RTMP peer sends, decoded in two phases for NIO's byte-to-message machinery
/// (`NIOSingleStepByteToMessageProcessor` in a handler, or `ByteToMessageHandler`): first the handshake
/// (RTMP spec §5.2), whose replies come out for the owner to write, then the chunk stream (§5.3) as whole
/// messages. Shared by the client and the relay so neither keeps its own cumulation buffer.
///
/// A class, not a struct: NIO's processor owns the decoder it drives, and the relay's deadline on an
/// unfinished message must still read ``oldestPartialMessage`` between reads. Partial input is never an
/// error ("need more data"); what the chunk decoder bounds (sizes, stream counts) it still throws.
public final class RTMPInboundDecoder: NIOSingleStepByteToMessageDecoder {
    /// One step of what the peer sent.
    public enum Inbound: Sendable, Equatable {
        /// A handshake reply (S0+S1+S2 for a server, C2 for a client) to write now, in order.
        case handshakeReply(ByteBuffer)
        /// The peer's side of the handshake is done: ``RTMPHandshake/peerByteCount`` bytes were its part.
        case handshakeComplete
        /// A whole message, with the first break of the spec the chunk decoder tolerated, if this one broke it.
        case message(RTMPRawMessage, warning: String?)
    }

    public typealias InboundOut = Inbound

    private var handshake: RTMPHandshake
    private var chunks: RTMPChunkDecoder
    /// How far the read index may run before read bytes are discarded; a copy per megabyte, as before NIO did it.
    private static let reclaimThreshold = 1 << 20

    public init(handshake: RTMPHandshake, chunkLimits: RTMPChunkDecoder.Limits = .init()) {
        self.handshake = handshake
        self.chunks = RTMPChunkDecoder(limits: chunkLimits)
    }

    /// True once the peer's handshake bytes have all been read.
    public var isHandshakeComplete: Bool { handshake.isComplete }

    /// The oldest message still unfinished (see ``RTMPChunkDecoder/oldestPartialMessage``).
    public var oldestPartialMessage: UInt64? { chunks.oldestPartialMessage }

    /// The bytes to send first (the client's C0+C1; nothing for a server).
    public func start() -> ByteBuffer { handshake.start() }

    public func decode(buffer: inout ByteBuffer) throws -> Inbound? {
        if !handshake.isComplete {
            switch try handshake.receive(&buffer) {
            case .needMoreData: return nil
            case .send(let bytes): return .handshakeReply(bytes)
            case .complete: return .handshakeComplete
            }
        }
        guard let raw = try chunks.decode(&buffer) else { return nil }
        return .message(raw, warning: chunks.takeWarning())
    }

    /// A peer that closes mid-message leaves nothing more to decode; what it left unfinished is dropped.
    public func decodeLast(buffer: inout ByteBuffer, seenEOF: Bool) throws -> Inbound? {
        try decode(buffer: &buffer)
    }

    public func shouldReclaimBytes(buffer: ByteBuffer) -> Bool {
        buffer.readerIndex > Self.reclaimThreshold
    }
}
