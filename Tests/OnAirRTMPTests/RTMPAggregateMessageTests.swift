import Foundation
import NIOCore
import OnAirRTMP
import Testing

/// Aggregate messages (RTMP spec §7.1.6) as Red5 and Wowza send them to players: the fixtures are an
/// ffmpeg-encoded FLV packed by an independent Python writer (Fixtures/make_aggregate_fixtures.py) in both
/// timestamp styles, read back through the chunk decoder and split.
@Suite("RTMP aggregate messages")
struct RTMPAggregateMessageTests {
    static let styles = ["relative", "absolute"]
    /// The absolute fixture shifts every timestamp by this much (inner TimestampExtended and the chunk
    /// header's Extended Timestamp in use).
    static let absoluteOffset: UInt32 = 0x0100_0000

    static func fixture(_ name: String, _ ext: String) throws -> ByteBuffer {
        let url = try #require(Bundle.module.url(forResource: name, withExtension: ext, subdirectory: "Fixtures"))
        return ByteBuffer(bytes: try Data(contentsOf: url))
    }

    /// The FLV's tags as the fixtures were made from.
    static func sourceTags() throws -> [FLVTag] {
        var reader = FLVFileReader()
        var bytes = try fixture("aggregate-source", "flv")
        var tags: [FLVTag] = []
        while let tag = try reader.nextTag(from: &bytes) { tags.append(tag) }
        return tags
    }

    /// Decodes a fixture's chunk stream fed `step` bytes at a time, then splits every aggregate.
    static func decode(_ style: String, step: Int) throws -> [RTMPRawMessage] {
        var input = try fixture("aggregate-\(style)-server-to-client", "chunks")
        var decoder = RTMPChunkDecoder()
        var inbox = ByteBuffer()
        var out: [RTMPRawMessage] = []
        while input.readableBytes > 0 {
            var piece = input.readSlice(length: min(step, input.readableBytes))!
            inbox.writeBuffer(&piece)
            while let raw = try decoder.decode(&inbox) {
                if raw.type == .aggregate { out += try RTMPAggregateMessage(raw).messages }
            }
        }
        #expect(inbox.readableBytes == 0)
        return out
    }

    @Test("every tag of the FLV comes out, in order, with its own timestamp, body and the aggregate's stream",
          arguments: styles)
    func everyTag(style: String) throws {
        let tags = try Self.sourceTags()
        let messages = try Self.decode(style, step: 1 << 20)
        #expect(tags.count == 42)
        #expect(messages.count == tags.count)
        let offset = style == "absolute" ? Self.absoluteOffset : 0
        for (tag, message) in zip(tags, messages) {
            #expect(message.typeID == tag.type.rawValue)
            #expect(message.timestamp == tag.timestamp &+ offset)
            #expect(message.payload == tag.data)
            #expect(message.messageStreamID == 1)
            #expect(message.chunkStreamID == 6)
        }
        #expect(messages.filter { $0.type == .video }.count == 17)
    }

    @Test("one byte at a time and all at once give the same sub-messages", arguments: styles)
    func bytewise(style: String) throws {
        #expect(try Self.decode(style, step: 1) == Self.decode(style, step: 1 << 20))
    }

    static func aggregate(_ body: ByteBuffer, timestamp: UInt32 = 1000) -> RTMPRawMessage {
        RTMPRawMessage(chunkStreamID: 6, timestamp: timestamp, typeID: RTMPMessageType.aggregate.rawValue,
                       messageStreamID: 1, payload: body)
    }

    static func tag(_ type: FLVTag.TagType, _ timestamp: UInt32, size: Int = 3) -> FLVTag {
        FLVTag(type: type, timestamp: timestamp, data: ByteBuffer(bytes: Array(repeating: 0x17, count: size)))
    }

    @Test("the first sub-message takes the aggregate's timestamp; the rest keep their distance, modulo 2^32")
    func timestampRule() throws {
        // Inner times from 0 (relative), equal to the aggregate's (absolute), and wrapping below 0.
        let cases: [(inner: [UInt32], aggregate: UInt32, expected: [UInt32])] = [
            ([0, 33, 66], 5000, [5000, 5033, 5066]),
            ([5000, 5033, 5066], 5000, [5000, 5033, 5066]),
            ([0x0100_0000, 0x0100_0021], 0x0100_0000, [0x0100_0000, 0x0100_0021]),
            ([0, UInt32.max - 9, 23], 100, [100, 90, 123]),
            ([7000, 7033], 0, [0, 33]),
        ]
        for example in cases {
            let body = RTMPAggregateMessage.body(example.inner.map { Self.tag(.video, $0) })
            let messages = try RTMPAggregateMessage(Self.aggregate(body, timestamp: example.aggregate)).messages
            #expect(messages.map(\.timestamp) == example.expected)
        }
    }

    @Test("an inner DataSize past the aggregate's end is refused, whatever its size")
    func hostileInnerLength() throws {
        for claimed in [4, 100, 0xFF_FFFF] {
            var body = RTMPAggregateMessage.body([Self.tag(.audio, 0, size: 3)])
            body.setInteger(UInt8(truncatingIfNeeded: claimed >> 16), at: 1)
            body.setInteger(UInt16(truncatingIfNeeded: claimed), at: 2)
            #expect(throws: RTMPAggregateMessage.Error.subMessageTooLong(offset: 0, dataSize: claimed, remaining: 3)) {
                try RTMPAggregateMessage(Self.aggregate(body))
            }
        }
    }

    @Test("a short inner DataSize lands on a wrong back pointer and is refused")
    func backPointer() throws {
        var body = RTMPAggregateMessage.body([Self.tag(.audio, 0, size: 8), Self.tag(.video, 10)])
        body.setInteger(UInt8(4), at: 3)                // DataSize 8 → 4: the back pointer read is body bytes
        #expect(throws: RTMPAggregateMessage.Error.backPointerMismatch(offset: 15, expected: 15, found: 0x1717_1717)) {
            try RTMPAggregateMessage(Self.aggregate(body))
        }
        var wrong = RTMPAggregateMessage.body([Self.tag(.audio, 0, size: 8)])
        wrong.setInteger(UInt32(8), at: 19)             // the FLV spec's old PreviousTagSize without the header
        #expect(throws: RTMPAggregateMessage.Error.backPointerMismatch(offset: 19, expected: 19, found: 8)) {
            try RTMPAggregateMessage(Self.aggregate(wrong))
        }
    }

    @Test("a cut header, a nested aggregate and too many sub-messages are refused")
    func otherHostileBodies() throws {
        var cut = RTMPAggregateMessage.body([Self.tag(.audio, 0)])
        cut.writeBytes([8, 0, 0])
        #expect(throws: RTMPAggregateMessage.Error.truncatedHeader(offset: 18, remaining: 3)) {
            try RTMPAggregateMessage(Self.aggregate(cut))
        }
        var nested = RTMPAggregateMessage.body([Self.tag(.audio, 0)])
        nested.setInteger(RTMPMessageType.aggregate.rawValue, at: 0)
        #expect(throws: RTMPAggregateMessage.Error.nestedAggregate(offset: 0)) {
            try RTMPAggregateMessage(Self.aggregate(nested))
        }
        let many = RTMPAggregateMessage.body((0..<9).map { Self.tag(.audio, UInt32($0)) })
        #expect(throws: RTMPAggregateMessage.Error.tooManySubMessages(limit: 8)) {
            try RTMPAggregateMessage(Self.aggregate(many), limits: .init(maxSubMessages: 8))
        }
        #expect(try RTMPAggregateMessage(Self.aggregate(ByteBuffer())).messages.isEmpty)
    }

    @Test("the sub-message reader says 'need more data' at every cut and never consumes a partial one")
    func needMoreData() throws {
        let whole = RTMPAggregateMessage.body([Self.tag(.video, 0x0123_4567, size: 40)])
        for cut in 0..<whole.readableBytes {
            var partial = whole.getSlice(at: 0, length: cut)!
            #expect(try RTMPAggregateMessage.decodeSubMessage(from: &partial) == nil)
            #expect(partial.readableBytes == cut)
        }
        var all = whole
        let sub = try #require(try RTMPAggregateMessage.decodeSubMessage(from: &all))
        #expect(sub.timestamp == 0x0123_4567)
        #expect(sub.body.readableBytes == 40)
        #expect(all.readableBytes == 0)
    }
}
