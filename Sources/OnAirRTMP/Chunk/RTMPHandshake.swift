import NIOCore

/// The RTMP handshake (RTMP spec §5.2) as a value-type state machine, for either end of a connection.
///
/// The owner performs the I/O: it sends ``start()``'s bytes (the client's C0+C1; nothing for a server),
/// then feeds every received buffer to ``receive(_:)`` until it reports ``Step/complete``, sending what
/// each step asks. Bytes after the handshake stay in the buffer for the chunk decoder. This is the
/// "simple" handshake of §5.2.2–§5.2.4 (random C1/S1, echoed C2/S2), which nginx-rtmp, ffmpeg, librtmp and
/// GStreamer all accept; the server role is what the embedded relay uses.
public struct RTMPHandshake: Sendable {
    /// Which side of the connection this is.
    public enum Role: Sendable, Equatable {
        case client
        case server
    }

    /// What the owner must do next.
    public enum Step: Sendable, Equatable {
        /// Wait for more bytes.
        case needMoreData
        /// Write these bytes, then call ``receive(_:)`` again with the same buffer.
        case send(ByteBuffer)
        /// The handshake is done; remaining bytes are chunk-stream data.
        case complete
    }

    /// Why a handshake failed.
    public enum Error: Swift.Error, Equatable, CustomStringConvertible {
        case unsupportedVersion(UInt8)

        /// `H`, the first byte of an HTTP response read as S0's version.
        static let httpFirstByte = UInt8(ascii: "H")

        public var description: String {
            switch self {
            case .unsupportedVersion(Self.httpFirstByte):
                // An answer that starts with "H" is almost always "HTTP/1.1 400 …": say so, not "version 72".
                "RTMP handshake: the peer answered with text that looks like HTTP, not RTMP; this port is a web server, not an RTMP server"
            case .unsupportedVersion(let version):
                "RTMP handshake: peer speaks version \(version), only 3 is defined (RTMP spec §5.2.2); is this an RTMP server?"
            }
        }
    }

    /// The one protocol version RTMP defines (§5.2.2); values 0–2 are deprecated, others unknown.
    public enum Version: UInt8, Sendable {
        case rtmp = 3
    }

    /// Size of C1/S1/C2/S2 (§5.2.3): 4-byte time, 4-byte zero/time2, 1528 random bytes.
    public static let packetSize = 1536

    /// What each peer sends in the whole handshake: the version byte, its hello and its echo (C0+C1+C2 or
    /// S0+S1+S2); what follows is chunk stream.
    public static let peerByteCount = 1 + 2 * packetSize

    private enum State: Sendable {
        case initial
        case awaitingPeerHello   // client: S0+S1; server: C0+C1
        case awaitingPeerEcho    // client: S2; server: C2
        case complete
    }

    public let role: Role
    private var state: State = .initial
    private var ownHello: [UInt8]
    private let epoch: UInt32

    /// - Parameters:
    ///   - randomBytes: the 1528 random bytes of C1/S1; generated when `nil` (tests pass fixed bytes).
    ///   - epoch: the time field of C1/S1 in milliseconds (§5.2.3); any value is valid.
    public init(role: Role, randomBytes: [UInt8]? = nil, epoch: UInt32 = 0) {
        self.role = role
        self.epoch = epoch
        var random = randomBytes ?? []
        if random.count != Self.packetSize - 8 {
            // §5.2.3 asks only that the bytes tell the two handshakes apart ("sufficiently random"), not that they
            // be secret: one getrandom(2) seeds SplitMix64 for all 1528 bytes. A draw per 8 bytes was 191 system
            // calls a connection (a byte a draw, before, 1528), most of what a relay's accept cost.
            var state = UInt64.random(in: .min ... .max)
            random = [UInt8](repeating: 0, count: Self.packetSize - 8)        // 1528: 191 whole draws
            random.withUnsafeMutableBytes { bytes in
                for offset in stride(from: 0, to: bytes.count - 7, by: 8) {
                    state &+= 0x9E37_79B9_7F4A_7C15
                    var mixed = (state ^ (state >> 30)) &* 0xBF58_476D_1CE4_E5B9
                    mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
                    mixed ^= mixed >> 31
                    bytes.storeBytes(of: mixed, toByteOffset: offset, as: UInt64.self)
                }
            }
        }
        var hello: [UInt8] = []
        hello.reserveCapacity(Self.packetSize)
        withUnsafeBytes(of: epoch.bigEndian) { hello.append(contentsOf: $0) }
        hello.append(contentsOf: [0, 0, 0, 0])
        hello.append(contentsOf: random)
        self.ownHello = hello
    }

    /// True once both sides have seen each other's echo.
    public var isComplete: Bool {
        if case .complete = state { return true }
        return false
    }

    /// The bytes to send first: C0+C1 for a client, nothing for a server (it answers C0+C1).
    public mutating func start() -> ByteBuffer {
        guard case .initial = state else { return ByteBuffer() }
        state = .awaitingPeerHello
        guard role == .client else { return ByteBuffer() }
        var buffer = ByteBuffer()
        buffer.reserveCapacity(1 + Self.packetSize)
        buffer.writeInteger(Version.rtmp.rawValue)
        buffer.writeBytes(ownHello)
        return buffer
    }

    /// Consumes handshake bytes from `buffer` and says what to do next; never consumes a partial packet.
    public mutating func receive(_ buffer: inout ByteBuffer) throws(Error) -> Step {
        switch state {
        case .initial:
            _ = start()
            return try receive(&buffer)
        case .awaitingPeerHello:
            // The version byte alone decides whether this is RTMP at all, so check it before waiting for more.
            guard let version = buffer.getInteger(at: buffer.readerIndex, as: UInt8.self) else { return .needMoreData }
            guard version == Version.rtmp.rawValue else { throw .unsupportedVersion(version) }
            guard buffer.readableBytes >= 1 + Self.packetSize else { return .needMoreData }
            buffer.moveReaderIndex(forwardBy: 1)
            let peerHello = buffer.readSlice(length: Self.packetSize) ?? ByteBuffer()
            state = .awaitingPeerEcho
            var out = ByteBuffer()
            if role == .server {
                out.reserveCapacity(1 + 2 * Self.packetSize)
                out.writeInteger(Version.rtmp.rawValue)
                out.writeBytes(ownHello)
            }
            // C2/S2 (§5.2.3): the peer's time, our read time, the peer's random echoed.
            var echo = peerHello
            out.writeBytes(echo.readBytes(length: 4) ?? [])
            out.writeInteger(epoch)
            echo.moveReaderIndex(forwardBy: 4)
            out.writeBuffer(&echo)
            return .send(out)
        case .awaitingPeerEcho:
            guard buffer.readableBytes >= Self.packetSize else { return .needMoreData }
            // The echo should repeat our random bytes; peers using the digest scheme do not, so accept it.
            buffer.moveReaderIndex(forwardBy: Self.packetSize)
            state = .complete
            return .complete
        case .complete:
            return .complete
        }
    }
}
