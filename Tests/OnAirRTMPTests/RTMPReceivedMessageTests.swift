import NIOCore
import OnAirRTMP
import Testing

/// What the client acts on for each whole message off the wire (`RTMPClientChannelHandler` and the
/// `FuzzPlayerDemuxer` fuzzer share this split): an aggregate (RTMP spec §7.1.6) is its sub-messages, each
/// decoded as if it had come alone; what cannot be used is one skipped item with a one-line reason.
@Suite("what the client makes of a received message")
struct RTMPReceivedMessageTests {
    static let video = ByteBuffer(bytes: [0x17, 1, 0, 0, 0, 0, 0, 0, 2, 0x65, 0x88])
    static let audio = ByteBuffer(bytes: [0xAF, 1, 0x21])
    static let metadata = RTMPMessage.data(RTMPDataMessage(handler: "onMetaData", arguments: [.number(30)])).raw().payload

    /// An aggregate at `timestamp` on message stream 1, chunk stream 6.
    static func aggregate(_ body: ByteBuffer, timestamp: UInt32 = 5000) -> RTMPRawMessage {
        RTMPRawMessage(chunkStreamID: 6, timestamp: timestamp, typeID: RTMPMessageType.aggregate.rawValue, messageStreamID: 1, payload: body)
    }

    @Test("an aggregate is its sub-messages, decoded, on the aggregate's streams at §7.1.6 timestamps (across the 32-bit wrap)")
    func aggregateSplits() {
        let body = RTMPAggregateMessage.body([
            FLVTag(type: .scriptData, timestamp: 0xFFFF_FFF0, data: Self.metadata),
            FLVTag(type: .video, timestamp: 0xFFFF_FFF0, data: Self.video),
            FLVTag(type: .audio, timestamp: 0x10, data: Self.audio),
        ])
        let received = RTMPReceivedMessage.split(Self.aggregate(body, timestamp: 0xFFFF_FFFF))
        #expect(received.map(\.raw.timestamp) == [0xFFFF_FFFF, 0xFFFF_FFFF, 0x1F])
        #expect(received.map(\.raw.typeID) == [18, 9, 8])
        #expect(received.allSatisfy { $0.raw.messageStreamID == 1 && $0.raw.chunkStreamID == 6 })
        guard received.count == 3, case .message(.data(let data), _) = received[0], case .message(.video(let video), _) = received[1],
              case .message(.audio(let audio), _) = received[2] else {
            Issue.record("not three decoded messages: \(received)")
            return
        }
        #expect(data.handler == "onMetaData")
        #expect(video == Self.video && audio == Self.audio)
    }

    @Test("an aggregate whose body is not whole sub-messages is skipped whole, with one line that names the fault")
    func brokenAggregateIsSkipped() {
        var body = RTMPAggregateMessage.body([FLVTag(type: .video, timestamp: 0, data: Self.video), FLVTag(type: .audio, timestamp: 0, data: Self.audio)])
        body.setInteger(UInt32(11), at: body.writerIndex - 4)        // the last back pointer lies
        let raw = Self.aggregate(body)
        let received = RTMPReceivedMessage.split(raw)
        guard received.count == 1, case .skipped(let skipped, let reason) = received[0] else {
            Issue.record("not one skipped item: \(received)")
            return
        }
        #expect(skipped == raw)
        #expect(reason.contains("back pointer") && reason.hasSuffix("; ignoring it") && !reason.contains("\n"))
    }

    @Test("an aggregate inside an aggregate is refused, not split again")
    func nestedAggregateIsSkipped() {
        let inner = RTMPAggregateMessage.body([FLVTag(type: .video, timestamp: 0, data: Self.video)])
        var body = ByteBuffer()
        body.writeInteger(RTMPMessageType.aggregate.rawValue)
        body.writeBytes([0, 0, UInt8(inner.readableBytes), 0, 0, 0, 0, 0, 0, 0])
        body.writeImmutableBuffer(inner)
        body.writeInteger(UInt32(11 + inner.readableBytes))
        let received = RTMPReceivedMessage.split(Self.aggregate(body))
        #expect(received.count == 1)
        if case .skipped(_, let reason) = received.first { #expect(reason.contains("another aggregate")) } else { Issue.record("\(received)") }
    }

    @Test("a sub-message the client cannot decode is skipped alone; the others are used")
    func undecodableSubMessageIsSkippedAlone() {
        var body = RTMPAggregateMessage.body([FLVTag(type: .video, timestamp: 0, data: Self.video)])
        var shared = RTMPAggregateMessage.body([FLVTag(type: .audio, timestamp: 0, data: Self.audio)])
        shared.setInteger(RTMPMessageType.sharedObjectAMF0.rawValue, at: shared.readerIndex)
        body.writeBuffer(&shared)
        let received = RTMPReceivedMessage.split(Self.aggregate(body))
        guard received.count == 2, case .message(.video, _) = received[0], case .skipped(let skipped, let reason) = received[1] else {
            Issue.record("not a video message and a skipped one: \(received)")
            return
        }
        #expect(skipped.typeID == RTMPMessageType.sharedObjectAMF0.rawValue && skipped.payload == Self.audio)
        #expect(reason.contains("not supported"))
    }

    @Test("a plain message is itself, decoded")
    func plainMessage() {
        let raw = RTMPRawMessage(chunkStreamID: 4, timestamp: 40, typeID: RTMPMessageType.video.rawValue, messageStreamID: 1, payload: Self.video)
        #expect(RTMPReceivedMessage.split(raw) == [.message(.video(Self.video), raw)])
    }
}
