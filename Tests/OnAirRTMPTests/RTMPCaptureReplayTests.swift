import Foundation
import NIOCore
import OnAirRTMP
import Testing

/// Replays bytes captured from a real nginx-rtmp session (see Fixtures/README.md).
@Suite("nginx-rtmp capture replay")
struct RTMPCaptureReplayTests {
    static func capture() throws -> ByteBuffer {
        let url = try #require(Bundle.module.url(forResource: "nginx-play-server-to-client", withExtension: "bin", subdirectory: "Fixtures"))
        return ByteBuffer(bytes: try Data(contentsOf: url))
    }

    /// Completes the client handshake on S0+S1+S2, then decodes chunks fed `step` bytes at a time.
    static func replay(step: Int) throws -> (messages: [RTMPRawMessage], leftover: Int) {
        var input = try capture()
        var handshake = RTMPHandshake(role: .client)
        _ = handshake.start()
        var inbox = ByteBuffer()
        var decoder = RTMPChunkDecoder()
        var messages: [RTMPRawMessage] = []
        while input.readableBytes > 0 {
            var piece = input.readSlice(length: min(step, input.readableBytes))!
            inbox.writeBuffer(&piece)
            while !handshake.isComplete, try handshake.receive(&inbox) != .needMoreData {}
            guard handshake.isComplete else { continue }
            while let message = try decoder.decode(&inbox) { messages.append(message) }
        }
        return (messages, inbox.readableBytes)
    }

    @Test("one byte at a time and all at once give the same messages")
    func sameMessages() throws {
        let whole = try Self.replay(step: 1 << 24)
        let bytewise = try Self.replay(step: 1)
        #expect(whole.messages.count > 50)
        #expect(whole.messages == bytewise.messages)
    }

    @Test("the session parses: control messages, connect result, play status, metadata, sequence headers, frames")
    func parses() throws {
        let messages = try Self.replay(step: 4096).messages.map { try RTMPMessage($0) }
        #expect(messages.contains(.setChunkSize(4096)))
        #expect(messages.contains { if case .windowAcknowledgementSize = $0 { true } else { false } })
        #expect(messages.contains { if case .setPeerBandwidth = $0 { true } else { false } })
        #expect(messages.contains { if case .userControl(.streamBegin) = $0 { true } else { false } })
        let commands = messages.compactMap { if case .command(let command) = $0 { command } else { nil } }
        #expect(commands.first?.name == RTMPCommand.Name.result)
        #expect(commands.first?.status?.code == .connectSuccess)
        #expect(commands.compactMap(\.status?.code).contains(.playStart))
        let data = messages.compactMap { if case .data(let data) = $0 { data } else { nil } }
        let metadata = try #require(data.compactMap(\.metadata).first)
        #expect(metadata["width"]?.numberValue == 320)
        #expect(metadata["height"]?.numberValue == 180)
        let video = try messages.compactMap { if case .video(let body) = $0 { try FLVVideoTag(parsing: body) } else { nil } }
        let header = try #require(video.first)
        #expect(header.packetType == .sequenceHeader)
        let record = try AVCDecoderConfigurationRecord(parsing: header.body)
        #expect(record.nalLengthSize == 4)
        #expect(record.sequenceParameterSets.count == 1)
        #expect(video.dropFirst().allSatisfy { $0.packetType == .nalu })
        #expect(video.dropFirst().first?.isKeyframe == true)
        let audio = try messages.compactMap { if case .audio(let body) = $0 { try FLVAudioTag(parsing: body) } else { nil } }
        let config = try #require(audio.first.map { AACAudioSpecificConfig(Array($0.body.readableBytesView)) } ?? nil)
        #expect(config.sampleRate == 44_100)
        #expect(audio.dropFirst().count > 10)
    }
}
