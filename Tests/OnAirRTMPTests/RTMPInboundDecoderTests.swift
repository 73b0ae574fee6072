import NIOCore
import NIOTestUtils
import OnAirRTMP
import Testing

/// The shared inbound decoder: the handshake phase, then the chunk phase, the same whether the peer's bytes
/// arrive one at a time or all at once (NIO's ByteToMessageDecoderVerifier feeds them every way).
@Suite struct RTMPInboundDecoderTests {
    static let peerRandom = (0..<(RTMPHandshake.packetSize - 8)).map { UInt8(truncatingIfNeeded: $0 &* 7) }
    static let ownRandom = [UInt8](repeating: 0x5A, count: RTMPHandshake.packetSize - 8)
    static let ownEpoch: UInt32 = 0x0102_0304
    static let peerTime: UInt32 = 0x0A0B_0C0D

    /// A peer's hello (S1/C1, RTMP spec §5.2.3): its time, four zero bytes, its random bytes.
    static func hello() -> ByteBuffer {
        var buffer = ByteBuffer()
        buffer.writeInteger(peerTime)
        buffer.writeInteger(UInt32(0))
        buffer.writeBytes(peerRandom)
        return buffer
    }

    /// Our echo of the peer's hello (C2/S2, §5.2.3): its time, our time, its random bytes.
    static func echoOfPeer() -> ByteBuffer {
        var buffer = ByteBuffer()
        buffer.writeInteger(peerTime)
        buffer.writeInteger(ownEpoch)
        buffer.writeBytes(peerRandom)
        return buffer
    }

    static func messages() -> [RTMPRawMessage] {
        let video = ByteBuffer(bytes: (0..<700).map { UInt8(truncatingIfNeeded: $0) })
        return [
            RTMPMessage.windowAcknowledgementSize(2_500_000).raw(),
            RTMPMessage.setChunkSize(300).raw(),
            RTMPMessage.userControl(.pingRequest(timestamp: 42)).raw(),
            RTMPRawMessage(chunkStreamID: 6, timestamp: 40, typeID: RTMPMessageType.video.rawValue, messageStreamID: 1, payload: video),
            RTMPRawMessage(chunkStreamID: 6, timestamp: 80, typeID: RTMPMessageType.video.rawValue, messageStreamID: 1, payload: video),
        ]
    }

    /// The chunk stream for `messages`, switching to 300-byte chunks after Set Chunk Size as a sender must.
    static func chunkStream(_ messages: [RTMPRawMessage]) -> ByteBuffer {
        var encoder = RTMPChunkEncoder()
        var out = ByteBuffer()
        for message in messages {
            encoder.encode(message, into: &out)
            if case .setChunkSize(let size)? = try? RTMPMessage(message) { encoder.setChunkSize(Int(size)) }
        }
        return out
    }

    /// What a peer in `role`'s position receives (the other side's handshake, then the chunk stream) and the
    /// steps the decoder must make of it.
    static func session(_ role: RTMPHandshake.Role) -> (input: ByteBuffer, steps: [RTMPInboundDecoder.Inbound]) {
        var input = ByteBuffer(bytes: [3])
        input.writeImmutableBuffer(hello())
        // The other side's echo of our hello; its content is not checked (digest-scheme peers differ).
        input.writeBytes([UInt8](repeating: 0x5A, count: RTMPHandshake.packetSize))
        input.writeImmutableBuffer(chunkStream(messages()))
        var reply = ByteBuffer()
        if role == .server {
            reply.writeInteger(UInt8(3))
            reply.writeInteger(ownEpoch)
            reply.writeInteger(UInt32(0))
            reply.writeBytes(ownRandom)
        }
        reply.writeImmutableBuffer(echoOfPeer())
        return (input, [.handshakeReply(reply), .handshakeComplete] + messages().map { .message($0, warning: nil) })
    }

    static func decoder(_ role: RTMPHandshake.Role) -> RTMPInboundDecoder {
        let decoder = RTMPInboundDecoder(handshake: RTMPHandshake(role: role, randomBytes: ownRandom, epoch: ownEpoch))
        _ = decoder.start()
        return decoder
    }

    @Test(arguments: [RTMPHandshake.Role.client, .server], [1, 7, 1537, Int.max])
    func handshakeThenChunksComeOutTheSameHoweverTheBytesArrive(_ role: RTMPHandshake.Role, sliceSize: Int) throws {
        var (input, expected) = Self.session(role)
        let processor = NIOSingleStepByteToMessageProcessor(Self.decoder(role))
        var steps: [RTMPInboundDecoder.Inbound] = []
        while input.readableBytes > 0 {
            let slice = input.readSlice(length: min(sliceSize, input.readableBytes))!
            try processor.process(buffer: slice) { steps.append($0) }
        }
        #expect(steps == expected)
        #expect(processor.unprocessedBytes == 0)
    }

    /// NIO's own check for decoders: the chunk phase fed whole, byte by byte (10 times) and all at once.
    @Test func chunkPhasePassesNIOsDecoderVerifier() throws {
        let messages = Self.messages()
        try ByteToMessageDecoderVerifier.verifyDecoder(
            inputOutputPairs: [(Self.chunkStream(messages), messages.map { .message($0, warning: nil) })]
        ) {
            let decoder = Self.decoder(.server)
            var handshake = Self.session(.server).input
            while let step = try? decoder.decode(buffer: &handshake), step != .handshakeComplete {}
            return decoder
        }
    }

    @Test func aPartialMessageIsNeedMoreDataAndStaysTheOldestPartial() throws {
        let decoder = RTMPInboundDecoder(handshake: RTMPHandshake(role: .server))
        let processor = NIOSingleStepByteToMessageProcessor(decoder)
        var input = ByteBuffer(bytes: [3])
        var hello = Self.hello()
        input.writeBuffer(&hello)
        input.writeBytes([UInt8](repeating: 0, count: RTMPHandshake.packetSize))
        var chunks = Self.chunkStream(Self.messages())
        let firstHalf = chunks.readSlice(length: chunks.readableBytes - 100)!
        input.writeImmutableBuffer(firstHalf)
        var seen: [RTMPInboundDecoder.Inbound] = []
        try processor.process(buffer: input) { seen.append($0) }
        #expect(seen.count == 2 + Self.messages().count - 1)
        #expect(decoder.isHandshakeComplete)
        let partial = try #require(decoder.oldestPartialMessage)
        try processor.process(buffer: chunks) { seen.append($0) }
        #expect(seen.last == .message(Self.messages().last!, warning: nil))
        #expect(decoder.oldestPartialMessage == nil)
        #expect(partial > 0)
    }

    @Test func aPeerThatIsNotRTMPIsToldByItsFirstByte() {
        let decoder = RTMPInboundDecoder(handshake: RTMPHandshake(role: .server))
        var input = ByteBuffer(bytes: Array("GET / HTTP/1.1\r\n".utf8))
        #expect(throws: RTMPHandshake.Error.unsupportedVersion(UInt8(ascii: "G"))) { try decoder.decode(buffer: &input) }
    }
}
