import NIOCore
@testable import OnAirRelay
import OnAirRTMP
import Testing

/// GitHub issue 14 item 2: a stream played on several message stream IDs is chunked once and copied.
@Suite("Relay fan-out batch")
struct RelayFanoutBatchTests {
    @Test("a copied message decodes to the same message on the other message stream ID")
    func copyRewritesOnlyTheStreamID() throws {
        var body = ByteBuffer()
        body.writeBytes([0x17, 1, 0, 0, 0])
        body.writeRepeatingByte(0xAB, count: 10_000)
        let raw = RTMPRawMessage(chunkStreamID: 6, timestamp: 0x0123_4567, typeID: RTMPMessageType.video.rawValue,
                                 messageStreamID: 1, payload: body)
        let message = try #require(RelayMediaMessage(raw))
        var first = RelayFanoutBatch(messageStreamID: 1)
        first.append(message, kind: .media(randomAccess: true), chunkSize: 4096)
        var other = RelayFanoutBatch(messageStreamID: 4242)
        other.append(copyOf: try #require(first.lastItem), from: first)

        for (batch, streamID) in [(first, UInt32(1)), (other, 4242)] {
            var decoder = RTMPChunkDecoder()
            var encoder = RTMPChunkEncoder()
            var bytes = ByteBuffer()
            encoder.encode(RTMPMessage.setChunkSize(4096).raw(), into: &bytes)     // what the relay announces
            var chunks = batch.bytes
            bytes.writeBuffer(&chunks)
            _ = try decoder.decode(&bytes)
            let decoded = try #require(try decoder.decode(&bytes))
            #expect(decoded.messageStreamID == streamID)
            #expect(decoded.timestamp == 0x0123_4567)
            #expect(decoded.payload == body)
            #expect(bytes.readableBytes == 0)
        }
    }
}
