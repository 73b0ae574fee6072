import NIOCore
import OnAirCore
import OnAirRTMP
import Testing

@Suite("RTMP messages")
struct RTMPMessageTests {
    static let samples: [RTMPMessage] = [
        .setChunkSize(4096), .abort(chunkStreamID: 6), .acknowledgement(sequenceNumber: 123_456),
        .windowAcknowledgementSize(2_500_000), .setPeerBandwidth(windowSize: 5_000_000, limit: .dynamic),
        .userControl(.streamBegin(streamID: 1)), .userControl(.streamEOF(streamID: 1)), .userControl(.streamDry(streamID: 1)),
        .userControl(.setBufferLength(streamID: 1, milliseconds: 3000)), .userControl(.pingRequest(timestamp: 77)),
        .userControl(.pingResponse(timestamp: 77)), .userControl(.other(eventType: 31, data: [0, 0, 0, 1])),
        .command(.connect(app: "live", tcURL: "rtmp://h:1935/live")),
        .command(.releaseStream(transactionID: 2, name: "s")), .command(.fcPublish(transactionID: 3, name: "s")),
        .command(.createStream(transactionID: 4)), .command(.publish(name: "s", type: .append)),
        .command(.play(name: "s")), .command(.deleteStream(streamID: 1)), .command(.fcUnpublish(transactionID: 5, name: "s")),
        .command(.result(transactionID: 4, arguments: [.number(1)])),
        .command(.error(transactionID: 1, status: RTMPStatus(code: .connectRejected, level: .error, description: "no"))),
        .command(.onStatus(RTMPStatus(code: .publishStart, level: .status, description: "Start publishing"))),
        .data(.setDataFrame(metadata: .ecmaArray(["width": .number(640)]))),
        .data(RTMPDataMessage(handler: "publisherBackground", arguments: [.string("streamName=stream1")])),
        .audio(ByteBuffer(bytes: [0xAF, 1, 2])), .video(ByteBuffer(bytes: [0x17, 1, 0, 0, 0])),
    ]

    @Test("every message round-trips through its payload")
    func roundTrip() throws {
        for message in Self.samples {
            let raw = message.raw(timestamp: 5, messageStreamID: 1)
            #expect(raw.typeID == message.type.rawValue)
            #expect(try RTMPMessage(raw) == message)
        }
    }

    @Test("publish carries the name and the publish type; onStatus carries code, level and description")
    func commandFields() throws {
        let publish = RTMPCommand.publish(name: "stream1", type: .record)
        #expect(publish.arguments == [.string("stream1"), .string("record")])
        let status = try #require(RTMPCommand.onStatus(RTMPStatus(code: .publishBadName, level: .error, description: "taken")).status)
        #expect(status.code == .publishBadName)
        #expect(status.level == .error)
        #expect(status.description == "taken")
    }

    @Test("@setDataFrame and plain onMetaData both expose the metadata; other handlers do not")
    func metadata() {
        let object = AMF0Value.ecmaArray(["width": .number(640)])
        #expect(RTMPDataMessage.setDataFrame(metadata: object).metadata == object)
        #expect(RTMPDataMessage(handler: "onMetaData", arguments: [object]).metadata == object)
        #expect(RTMPDataMessage(handler: "publisherBackground", arguments: [.string("x")]).metadata == nil)
    }

    @Test("unknown types, truncated bodies and bodies without a name are typed errors")
    func errors() {
        func raw(_ type: UInt8, _ bytes: [UInt8]) -> RTMPRawMessage {
            RTMPRawMessage(chunkStreamID: 3, timestamp: 0, typeID: type, messageStreamID: 0, payload: ByteBuffer(bytes: bytes))
        }
        #expect(throws: RTMPMessage.Error.unknownType(99)) { try RTMPMessage(raw(99, [])) }
        #expect(throws: RTMPMessage.Error.truncated(.setChunkSize)) { try RTMPMessage(raw(1, [0, 0])) }
        #expect(throws: RTMPMessage.Error.unsupportedType(.aggregate)) { try RTMPMessage(raw(22, [])) }
        #expect(throws: RTMPMessage.Error.missingName(.commandAMF0)) { try RTMPMessage(raw(20, [AMF0Marker.null.rawValue])) }
        #expect(throws: RTMPMessage.Error.invalidAMF(.dataAMF0, .unknownMarker(0x55))) { try RTMPMessage(raw(18, [0x55])) }
    }

    @Test("an AMF3 command with a leading format byte decodes as AMF0")
    func amf3Command() throws {
        var body = ByteBuffer(bytes: [0])
        AMF0Encoder.encode(RTMPCommand.createStream(transactionID: 2).values, into: &body)
        let raw = RTMPRawMessage(chunkStreamID: 3, timestamp: 0, typeID: RTMPMessageType.commandAMF3.rawValue, messageStreamID: 0, payload: body)
        #expect(try RTMPMessage(raw) == .command(.createStream(transactionID: 2)))
    }
}
