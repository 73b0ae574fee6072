import NIOCore
import OnAirRTMP
import Testing

/// GitHub issue 14 item 4: unfinished messages across chunk streams are bounded, and their age observable.
@Suite("RTMP chunk decoder: unfinished messages")
struct RTMPChunkDecoderPartialLimitTests {
    /// The first 128-byte chunk of a `length`-byte video message on chunk stream `csid`.
    private static func firstChunk(csid: UInt32, length: UInt32, into bytes: inout ByteBuffer) {
        RTMPChunkHeader(format: .full, chunkStreamID: csid, messageLength: length,
                        messageTypeID: RTMPMessageType.video.rawValue, messageStreamID: 1).write(into: &bytes)
        bytes.writeBytes(Array(repeating: 0, count: 128))
    }

    @Test("60 chunk streams each opening an 8 MB message are refused once their total passes the limit")
    func boundedAcrossChunkStreams() throws {
        var bytes = ByteBuffer()
        for csid in 3..<63 { Self.firstChunk(csid: UInt32(csid), length: 8 << 20, into: &bytes) }
        var decoder = RTMPChunkDecoder(limits: .init(maxPartialBytes: 16 << 20))
        #expect(throws: RTMPChunkDecoder.Error.partialMessagesTooLarge(bytes: 3 * (8 << 20), limit: 16 << 20)) {
            while try decoder.decode(&bytes) != nil {}
        }
        #expect(decoder.partialBytes == 2 * (8 << 20))
    }

    @Test("finished and aborted messages give their bytes back; the oldest unfinished one is named")
    func accountingAndOldest() throws {
        var bytes = ByteBuffer()
        Self.firstChunk(csid: 4, length: 300, into: &bytes)
        Self.firstChunk(csid: 6, length: 400, into: &bytes)
        var decoder = RTMPChunkDecoder()
        while try decoder.decode(&bytes) != nil {}
        #expect(decoder.partialBytes == 700)
        #expect(decoder.oldestPartialMessage == 1)

        var rest = ByteBuffer()
        RTMPChunkHeader(format: .continuation, chunkStreamID: 4).write(into: &rest)
        rest.writeBytes(Array(repeating: 0, count: 128))
        RTMPChunkHeader(format: .continuation, chunkStreamID: 4).write(into: &rest)
        rest.writeBytes(Array(repeating: 0, count: 44))
        var decoded: [RTMPRawMessage] = []
        while let message = try decoder.decode(&rest) { decoded.append(message) }
        #expect(decoded.map(\.payload.readableBytes) == [300])
        #expect(decoder.partialBytes == 400)
        #expect(decoder.oldestPartialMessage == 2, "chunk stream 6's message is now the oldest unfinished one")

        var abort = ByteBuffer()
        var encoder = RTMPChunkEncoder()
        encoder.encode(RTMPMessage.abort(chunkStreamID: 6).raw(), into: &abort)
        while try decoder.decode(&abort) != nil {}
        #expect(decoder.partialBytes == 0)
        #expect(decoder.oldestPartialMessage == nil)
    }
}
