import NIOCore
import OnAirRTMP
import Testing

@Suite("RTMP chunk stream")
struct RTMPChunkCodecTests {
    static func message(_ csid: UInt32, _ timestamp: UInt32, _ type: RTMPMessageType, stream: UInt32 = 1, length: Int) -> RTMPRawMessage {
        RTMPRawMessage(chunkStreamID: csid, timestamp: timestamp, typeID: type.rawValue, messageStreamID: stream,
                       payload: ByteBuffer(bytes: (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ Int(timestamp)) }))
    }

    static let messages: [RTMPRawMessage] = [
        RTMPMessage.setChunkSize(300).raw(),
        message(6, 0, .video, length: 1000),
        message(4, 0, .audio, length: 10),
        message(6, 33, .video, length: 1000),
        message(6, 66, .video, length: 1000),
        message(6, 99, .video, length: 1000),          // same length/type/delta: format 3
        message(4, 23, .audio, length: 12),
        message(6, 133, .video, length: 0),            // empty message
        message(6, 0xFF_FFFF, .video, length: 700),     // extended timestamp, continuation chunks too
        message(6, 0xFFFF_FFF0, .video, length: 700),   // near the 32-bit wrap
        message(8, 0x0200_0000, .dataAMF0, length: 5),
        message(400, 5, .audio, stream: 2, length: 3),  // 2-byte basic header
        message(70_000 - 64 - 5_000, 6, .audio, stream: 2, length: 3), // 3-byte basic header
    ]

    /// Encodes `messages` with the chunk sizes that the Set Chunk Size messages among them announce.
    static func encode(_ messages: [RTMPRawMessage]) -> ByteBuffer {
        var encoder = RTMPChunkEncoder()
        var out = ByteBuffer()
        for message in messages {
            encoder.encode(message, into: &out)
            if message.typeID == RTMPMessageType.setChunkSize.rawValue {
                encoder.setChunkSize(Int(message.payload.getInteger(at: message.payload.readerIndex, as: UInt32.self)!))
            }
        }
        return out
    }

    static func decode(_ bytes: ByteBuffer, step: Int, limits: RTMPChunkDecoder.Limits = .init()) throws -> [RTMPRawMessage] {
        var decoder = RTMPChunkDecoder(limits: limits)
        var input = bytes
        var inbox = ByteBuffer()
        var out: [RTMPRawMessage] = []
        while input.readableBytes > 0 {
            var piece = input.readSlice(length: min(step, input.readableBytes))!
            inbox.writeBuffer(&piece)
            while let message = try decoder.decode(&inbox) { out.append(message) }
        }
        return out
    }

    @Test("decoding one byte at a time and all at once gives the encoded messages", arguments: [1, 3, 128, 1 << 20])
    func roundTrip(step: Int) throws {
        let decoded = try Self.decode(Self.encode(Self.messages), step: step)
        #expect(decoded == Self.messages)
    }

    @Test("the encoder picks the smallest header format")
    func formats() {
        var encoder = RTMPChunkEncoder()
        func firstByte(_ message: RTMPRawMessage) -> UInt8 {
            var out = ByteBuffer()
            encoder.encode(message, into: &out)
            return out.getInteger(at: 0, as: UInt8.self)! >> 6
        }
        #expect(firstByte(Self.message(6, 0, .video, length: 10)) == RTMPChunkHeader.Format.full.rawValue)
        #expect(firstByte(Self.message(6, 33, .video, length: 10)) == RTMPChunkHeader.Format.timestampOnly.rawValue)
        #expect(firstByte(Self.message(6, 66, .video, length: 10)) == RTMPChunkHeader.Format.continuation.rawValue)
        #expect(firstByte(Self.message(6, 99, .video, length: 11)) == RTMPChunkHeader.Format.sameStream.rawValue)
        #expect(firstByte(Self.message(6, 50, .video, length: 11)) == RTMPChunkHeader.Format.full.rawValue)
        #expect(firstByte(Self.message(6, 60, .video, stream: 9, length: 11)) == RTMPChunkHeader.Format.full.rawValue)
    }

    @Test("an extended timestamp is repeated on format-3 continuation chunks")
    func extendedContinuation() {
        var encoder = RTMPChunkEncoder()
        var out = ByteBuffer()
        encoder.encode(Self.message(6, 0x0100_0000, .video, length: 200), into: &out)
        // 1 + 11 + 4 header, 128 payload, then 1 + 4 continuation header, 72 payload.
        #expect(out.readableBytes == 16 + 128 + 5 + 72)
        #expect(out.getInteger(at: 16 + 128 + 1, as: UInt32.self) == 0x0100_0000)
    }

    @Test("Abort discards a partly received message")
    func abort() throws {
        var encoder = RTMPChunkEncoder()
        var bytes = ByteBuffer()
        encoder.encode(Self.message(6, 0, .video, length: 200), into: &bytes)
        bytes.moveWriterIndex(to: 12 + 128)   // first chunk only
        encoder.encode(RTMPMessage.abort(chunkStreamID: 6).raw(), into: &bytes)
        var fresh = RTMPChunkEncoder()
        var next = ByteBuffer()
        fresh.encode(Self.message(6, 40, .video, length: 5), into: &next)
        bytes.writeBuffer(&next)
        let decoded = try Self.decode(bytes, step: 1 << 20)
        #expect(decoded.map(\.typeID) == [RTMPMessageType.abort.rawValue, RTMPMessageType.video.rawValue])
        #expect(decoded.last?.payload.readableBytes == 5)
    }

    @Test("Set Chunk Size of 2^31 is refused")
    func hugeChunkSize() {
        var bytes = ByteBuffer()
        var encoder = RTMPChunkEncoder()
        encoder.encode(RTMPMessage.setChunkSize(0x8000_0000).raw(), into: &bytes)
        #expect(throws: RTMPChunkDecoder.Error.chunkSizeOutOfRange(requested: 0x8000_0000, limit: 0xFF_FFFF)) {
            try Self.decode(bytes, step: 1 << 20)
        }
    }

    @Test("10 000 chunk stream IDs hit the chunk-stream limit")
    func manyChunkStreams() {
        var bytes = ByteBuffer()
        for id in 0..<10_000 {
            let header = RTMPChunkHeader(format: .full, chunkStreamID: UInt32(3 + id), messageLength: 200,
                                         messageTypeID: RTMPMessageType.video.rawValue, messageStreamID: 1)
            header.write(into: &bytes)
            bytes.writeBytes(Array(repeating: 0, count: 128))   // first chunk of a 200-byte message: state stays open
        }
        #expect(throws: RTMPChunkDecoder.Error.tooManyChunkStreams(limit: 64)) { try Self.decode(bytes, step: 1 << 20) }
    }

    @Test("a message longer than the limit is refused from its header")
    func messageTooLong() {
        var bytes = ByteBuffer()
        RTMPChunkHeader(format: .full, chunkStreamID: 6, messageLength: 0xFF_FFFF, messageTypeID: 9, messageStreamID: 1)
            .write(into: &bytes)
        let limits = RTMPChunkDecoder.Limits(maxMessageLength: 1 << 20)
        #expect(throws: RTMPChunkDecoder.Error.messageTooLong(length: 0xFF_FFFF, limit: 1 << 20)) {
            try Self.decode(bytes, step: 1 << 20, limits: limits)
        }
    }

    @Test("a format-1/2/3 first header on a fresh chunk stream reads as zeros on message stream 0 (as ffmpeg and librtmp), with one warning")
    func noPreviousHeaderTolerated() throws {
        var bytes = ByteBuffer()
        RTMPChunkHeader(format: .sameStream, chunkStreamID: 9, timestampField: 40, messageLength: 4, messageTypeID: 9).write(into: &bytes)
        bytes.writeBytes([1, 2, 3, 4])
        RTMPChunkHeader(format: .timestampOnly, chunkStreamID: 10, timestampField: 7).write(into: &bytes)
        RTMPChunkHeader(format: .continuation, chunkStreamID: 11).write(into: &bytes)
        // The same stream goes on normally afterwards: a format-2 header reuses the length and type learnt.
        RTMPChunkHeader(format: .timestampOnly, chunkStreamID: 9, timestampField: 33).write(into: &bytes)
        bytes.writeBytes([5, 6, 7, 8])
        for step in [1, 3, 1 << 20] {
            var decoder = RTMPChunkDecoder()
            var input = bytes
            var inbox = ByteBuffer()
            var messages: [RTMPRawMessage] = []
            var warnings: [String] = []
            while input.readableBytes > 0 {
                var piece = input.readSlice(length: min(step, input.readableBytes))!
                inbox.writeBuffer(&piece)
                while let message = try decoder.decode(&inbox) { messages.append(message) }
                if let warning = decoder.takeWarning() { warnings.append(warning) }
            }
            #expect(messages.map(\.typeID) == [9, 0, 0, 9], "step \(step)")
            #expect(messages.map(\.messageStreamID) == [0, 0, 0, 0])
            #expect(messages.map(\.timestamp) == [40, 7, 0, 73])
            #expect(messages.map(\.payload.readableBytes) == [4, 0, 0, 4])
            #expect(warnings.count == 1, "one warning for the first break only: \(warnings)")
            #expect(warnings.first?.contains("format-1") == true)
        }
    }

    @Test("tolerating a missing previous header keeps the limits: fresh chunk streams of any format still count")
    func toleratedHeadersStillBounded() {
        var bytes = ByteBuffer()
        for id in 3..<80 { RTMPChunkHeader(format: .timestampOnly, chunkStreamID: UInt32(id), timestampField: 1).write(into: &bytes) }
        #expect(throws: RTMPChunkDecoder.Error.tooManyChunkStreams(limit: 64)) { try Self.decode(bytes, step: 1 << 20) }
    }

    @Test("a new header in the middle of a message is refused")
    func interrupted() {
        var bytes = ByteBuffer()
        RTMPChunkHeader(format: .full, chunkStreamID: 6, messageLength: 300, messageTypeID: 9, messageStreamID: 1).write(into: &bytes)
        bytes.writeBytes(Array(repeating: 1, count: 128))
        RTMPChunkHeader(format: .timestampOnly, chunkStreamID: 6, timestampField: 5).write(into: &bytes)
        #expect(throws: RTMPChunkDecoder.Error.headerInterruptsMessage(chunkStreamID: 6)) { try Self.decode(bytes, step: 1 << 20) }
    }
}
