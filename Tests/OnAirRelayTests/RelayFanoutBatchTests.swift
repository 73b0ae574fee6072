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

    private static func message(_ byte: UInt8, count: Int) throws -> RelayMediaMessage {
        var body = ByteBuffer()
        body.writeBytes([0x27, 1, 0, 0, 0])
        body.writeRepeatingByte(byte, count: count)
        return try #require(RelayMediaMessage(RTMPRawMessage(
            chunkStreamID: 6, timestamp: 40, typeID: RTMPMessageType.video.rawValue, messageStreamID: 1, payload: body)))
    }

    @Test("a delivered batch is reused for the next burst, and never writes over bytes a lagging player still holds")
    func reuseKeepsHeldBytes() throws {
        var batch = RelayFanoutBatch(messageStreamID: 1)
        batch.append(try Self.message(0xAA, count: 1_000), kind: .media(randomAccess: false), chunkSize: 4096)
        var delivered = batch.take()
        let held = delivered.slice(try #require(delivered.lastItem))        // in a lagging player's queue
        let heldCopy = Array(held.readableBytesView)
        batch.reuse(consume delivered)
        #expect(batch.isEmpty && batch.bytes.readableBytes == 0)
        batch.append(try Self.message(0x55, count: 1_000), kind: .media(randomAccess: false), chunkSize: 4096)
        #expect(Array(held.readableBytesView) == heldCopy, "the held message was written over")

        // Nobody holds the delivered bytes: the next burst writes into the same storage.
        delivered = batch.take()
        let storage = delivered.bytes.withUnsafeReadableBytes { UInt(bitPattern: $0.baseAddress) }
        batch.reuse(consume delivered)
        batch.append(try Self.message(0x11, count: 500), kind: .essential, chunkSize: 4096)
        #expect(batch.bytes.withUnsafeReadableBytes { UInt(bitPattern: $0.baseAddress) } == storage)
        #expect(batch.bytes.readableBytes > 500 && batch.lastItem?.offset == 0)
    }

    @Test("a batch over the reuse limit (a large keyframe) is let go, not kept for the next burst")
    func largeBatchIsNotKept() throws {
        var batch = RelayFanoutBatch(messageStreamID: 1)
        batch.append(try Self.message(0xAA, count: RelayFanoutBatch.reuseLimit + 1), kind: .media(randomAccess: true), chunkSize: 4096)
        let delivered = batch.take()
        batch.reuse(consume delivered)
        #expect(batch.bytes.capacity < RelayFanoutBatch.reuseLimit)
    }
}
