import NIOCore
@testable import OnAirRelay
import OnAirRTMP
import Testing

/// The pure pieces of the media path: classification, the late-joiner cache and shared chunking.
@Suite("Relay message path")
struct RelayMessagePathTests {
    private static func raw(_ type: RTMPMessageType, _ payload: ByteBuffer, timestamp: UInt32 = 0) -> RTMPRawMessage {
        RTMPRawMessage(chunkStreamID: 4, timestamp: timestamp, typeID: type.rawValue, messageStreamID: 1, payload: payload)
    }

    private static func video(key: Bool, header: Bool = false, timestamp: UInt32 = 0) -> RelayMediaMessage {
        let frame: FLVVideoTag.FrameType = key ? .keyframe : .interframe
        let packet: FLVVideoTag.AVCPacketType = header ? .sequenceHeader : .nalu
        let body = ByteBuffer(bytes: [frame.rawValue << 4 | FLVVideoTag.CodecID.avc.rawValue, packet.rawValue, 0, 0, 0, 9])
        return RelayMediaMessage(raw(.video, body, timestamp: timestamp))!
    }

    private static func audio(header: Bool = false) -> RelayMediaMessage {
        RelayMediaMessage(raw(.audio, ByteBuffer(bytes: [FLVAudioTag.aacFormatByte, header ? 0 : 1, 0x12, 0x10])))!
    }

    @Test("video and audio messages are classified from their FLV headers")
    func classifiesMedia() {
        #expect(Self.video(key: true).isKeyframe)
        #expect(!Self.video(key: false).isKeyframe)
        #expect(Self.video(key: true, header: true).isSequenceHeader && !Self.video(key: true, header: true).isKeyframe)
        #expect(Self.audio(header: true).isSequenceHeader)
        #expect(!Self.audio().isSequenceHeader)
        #expect(Self.audio().isRandomAccessPoint(streamHasVideo: false))
        #expect(!Self.audio().isRandomAccessPoint(streamHasVideo: true))
    }

    @Test("@setDataFrame onMetaData reaches players as onMetaData with the same metadata bytes; other data is untouched")
    func rewritesSetDataFrame() throws {
        let metadata: AMF0Value = .ecmaArray(["width": .number(640), "custom": .string("kept")])
        let sent = AMF0Encoder.encode(RTMPDataMessage.setDataFrame(metadata: metadata).values)
        let message = try #require(RelayMediaMessage(Self.raw(.dataAMF0, sent)))
        #expect(message.kind == .metadata)
        #expect(try AMF0Decoder().decodeAll(message.payload) == [.string("onMetaData"), metadata])

        let notice = AMF0Encoder.encode([.string("publisherBackground"), .string("streamName=s1")])
        let relayed = try #require(RelayMediaMessage(Self.raw(.dataAMF0, notice)))
        #expect(relayed.kind == .data)
        #expect(relayed.payload == notice, "relayed byte for byte")
    }

    @Test("the cache holds metadata, both sequence headers and the GOP since the last keyframe, in that order")
    func cacheKeepsLastGOP() throws {
        var cache = RelayStreamCache(gopLimit: 1 << 20)
        let metadata = try #require(RelayMediaMessage(Self.raw(.dataAMF0, AMF0Encoder.encode([.string("onMetaData"), .null]))))
        cache.add(Self.video(key: false, timestamp: 1))            // before any keyframe: not cached
        cache.add(metadata)
        cache.add(Self.video(key: true, header: true))
        cache.add(Self.audio(header: true))
        cache.add(Self.video(key: true, timestamp: 10))
        cache.add(Self.audio())
        cache.add(Self.video(key: false, timestamp: 43))
        cache.add(Self.video(key: true, timestamp: 1000))           // a new GOP replaces the old one
        cache.add(Self.video(key: false, timestamp: 1033))
        let join = cache.joinMessages
        #expect(join.map(\.kind) == [.metadata, .video, .audio, .video, .video])
        #expect(join[1].isSequenceHeader && join[2].isSequenceHeader)
        #expect(join.dropFirst(3).map(\.timestamp) == [1000, 1033])
        #expect(join[3].isKeyframe)
    }

    @Test("a GOP longer than the cache limit is not cached")
    func cacheLimit() {
        var cache = RelayStreamCache(gopLimit: 15)
        cache.add(Self.video(key: true))
        cache.add(Self.video(key: false))
        cache.add(Self.video(key: false))
        #expect(cache.gop.isEmpty)
    }

    @Test("shared chunks decode to the same message with RTMPChunkDecoder, also with extended timestamps", arguments: [
        (UInt32(0), 10), (UInt32(40), 4096), (UInt32(90_000), 4097), (UInt32(0x0100_0000), 10_000),
    ])
    func chunksDecode(_ timestamp: UInt32, _ length: Int) throws {
        var payload = ByteBuffer()
        for index in 0..<length { payload.writeInteger(UInt8(truncatingIfNeeded: index)) }
        var decoder = RTMPChunkDecoder()
        var setChunkSize = ByteBuffer()
        var encoder = RTMPChunkEncoder()
        encoder.encode(RTMPMessage.setChunkSize(4096).raw(), into: &setChunkSize)
        _ = try decoder.decode(&setChunkSize)
        let bytes = RelayChunkWriter.chunks(
            typeID: RTMPMessageType.video.rawValue, timestamp: timestamp, payload: payload, messageStreamID: 1, chunkSize: 4096,
            allocator: ByteBufferAllocator())
        for _ in 0..<2 {                                               // twice: format 0 never depends on the last header
            var copy = bytes
            let message = try #require(try decoder.decode(&copy))
            #expect(message.timestamp == timestamp && message.payload == payload && message.messageStreamID == 1)
            #expect(copy.readableBytes == 0)
        }
    }
}
