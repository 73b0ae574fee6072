import Glibc
import NIOCore
import NIOEmbedded
import OnAirCore
import OnAirRTMP

/// One client of the relay under fuzzing: an `EmbeddedChannel` carrying the relay's real connection handler,
/// the client's own chunk encoder for the messages the script builds, and a check of every byte the relay
/// writes back. The check is the oracle beside "no trap": whatever a peer sends, what the relay writes to
/// any connection is S0+S1+S2 (RTMP spec §5.2.2–5.2.4) and then a chunk stream (§5.3) that our own decoder
/// reads without an error and without a tolerated break, whose control messages (§5.4) and commands (§7.2)
/// parse — the relay writes those itself, they are never a peer's bytes passed on.
final class RelayFuzzPeer {
    let channel: EmbeddedChannel
    /// The relay's number for this connection (its handler's `id`, named in its events).
    let connection: Int
    /// What the script's structured messages are chunked with (the peer's side of the connection).
    var encoder = RTMPChunkEncoder()
    /// Message stream IDs the relay gave this peer (`createStream`'s `_result`, §7.2.1.3).
    private(set) var streamIDs: [UInt32] = []
    /// The relay's S0+S1+S2 as far as it has come (RTMP spec §5.2.2–5.2.4).
    private var handshake: [UInt8] = []
    private var chunks = RTMPChunkDecoder(limits: .init(
        maxChunkSize: 0xFF_FFFF, maxMessageLength: 0xFF_FFFF, maxChunkStreams: 65_600, maxPartialBytes: 64 << 20))
    private var unread = ByteBuffer()
    /// Every byte the relay wrote to this peer (printed with `ONAIR_FUZZ_TRACE`).
    private(set) var bytesFromRelay = 0

    /// The relay's S1, echoed as C2 by ``RelayFuzzSession``'s quick start; empty until it has all come.
    var serverHello: ArraySlice<UInt8> {
        handshake.count > RTMPFuzzHandshake.packetLength ? handshake[1...RTMPFuzzHandshake.packetLength] : []
    }

    /// The "socket" in front of the relay's handler, which the script fills and drains.
    let socketBuffer: HeldSocketBuffer
    /// Closed by the script with no event before it (``RelayFuzzEventCheck/checkCount(of:open:)``).
    var closedAbruptly = false

    init(channel: EmbeddedChannel, connection: Int, socketBuffer: HeldSocketBuffer) {
        self.channel = channel
        self.connection = connection
        self.socketBuffer = socketBuffer
    }

    /// Reads and checks everything the relay has written to this peer since the last call.
    func drain() {
        while case .some(var buffer) = try? channel.readOutbound(as: ByteBuffer.self) {
            bytesFromRelay += buffer.readableBytes
            let missing = 1 + 2 * RTMPFuzzHandshake.packetLength - handshake.count
            if missing > 0 { handshake += buffer.readBytes(length: min(missing, buffer.readableBytes)) ?? [] }
            unread.writeBuffer(&buffer)
        }
        if let version = handshake.first {
            precondition(version == 3, "the relay's S0 names version \(version), not 3 (RTMP spec §5.2.2)")
        }
        do {
            while let message = try chunks.decode(&unread) { check(message) }
        } catch {
            preconditionFailure("the relay wrote a chunk stream that does not decode: \(error)")
        }
        if let warning = chunks.takeWarning() {
            preconditionFailure("the relay wrote a chunk stream that breaks the spec: \(warning)")
        }
    }

    private func check(_ raw: RTMPRawMessage) {
        let ownTypes: Set<UInt8> = [1, 2, 3, 4, 5, 6, 20]
        guard ownTypes.contains(raw.typeID) else { return }
        let message: RTMPMessage
        do {
            message = try RTMPMessage(raw)
        } catch {
            preconditionFailure("the relay wrote a type-\(raw.typeID) message that does not parse: \(error)")
        }
        if case .command(let command) = message, command.name == RTMPCommand.Name.result,
           let id = command.arguments.first?.numberValue, id >= 1, id <= Double(UInt32.max) {
            streamIDs.append(UInt32(id))
        }
    }
}

/// The handshake's fixed sizes (RTMP spec §5.2.3): C1/S1/C2/S2 are 1536 bytes.
enum RTMPFuzzHandshake {
    static let packetLength = 1536
}

/// What the relay's events must say, whatever the peers did:
/// - every string reaches the operator's terminal or log: none may carry a control character (C0, DEL, C1),
///   whatever a peer named its stream or wrote in a command;
/// - byte counts are what the wire carried: the bytes a connection's plays report (`playStopped`) fit in what
///   the connection wrote (`connectionClosed`), which a player's queue dropping media must not break, and
///   that is exactly what its peer received — not what the relay handed to the channel and the close dropped.
enum RelayFuzzEventCheck {
    /// `ONAIR_FUZZ_TRACE=1` prints every event and each peer's byte count: what a seed or a finding made the relay do.
    static let traces = getenv("ONAIR_FUZZ_TRACE") != nil
    /// Bytes each connection's stopped plays reported (the fuzzer runs one input at a time, on one thread).
    nonisolated(unsafe) private static var playedBytes: [Int: UInt64] = [:]
    /// What each closed connection's `connectionClosed` said it wrote.
    nonisolated(unsafe) private static var closedBytes: [Int: UInt64] = [:]

    static func reset() {
        playedBytes = [:]
        closedBytes = [:]
    }

    /// After `peer` has read everything the relay wrote to it: a connection never counts more than its peer
    /// received (what NIO held when it closed never left), and a closed one counts exactly that unless it
    /// was closed with no event first.
    static func checkCount(of peer: RelayFuzzPeer, open handler: RelayConnectionHandler?) {
        let received = UInt64(peer.bytesFromRelay)
        if let written = closedBytes[peer.connection] {
            precondition(written == received || (peer.closedAbruptly && written < received),
                         "connection \(peer.connection) reports \(written) bytes written, its peer received \(received)")
        } else if let handler {
            precondition(handler.bytesOut <= received, "connection \(peer.connection) counts \(handler.bytesOut) bytes, its peer received \(received)")
        }
    }

    static func check(_ event: RelayEvent) {
        if traces { print(event) }
        visit(Mirror(reflecting: event), in: event)
        switch event {
        case .playStopped(_, let connection, let bytes, _):
            playedBytes[connection, default: 0] += bytes
        case .connectionClosed(let connection, _, let written):
            let played = playedBytes.removeValue(forKey: connection) ?? 0
            closedBytes[connection] = written
            precondition(played <= written, "connection \(connection)'s plays report \(played) bytes, it wrote \(written)")
        default:
            break
        }
    }

    private static func visit(_ mirror: Mirror, in event: RelayEvent) {
        for child in mirror.children {
            if let text = child.value as? String {
                for scalar in text.unicodeScalars {
                    let value = scalar.value
                    precondition(value >= 0x20 && !(0x7F...0x9F).contains(value),
                                 "a relay event carries control character U+\(String(value, radix: 16)): \(event)")
                }
            } else {
                visit(Mirror(reflecting: child.value), in: event)
            }
        }
    }
}
