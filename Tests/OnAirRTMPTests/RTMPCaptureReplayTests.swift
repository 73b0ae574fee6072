import Foundation
import NIOCore
import OnAirRTMP
import Testing

/// Replays bytes captured from real nginx-rtmp / ffmpeg sessions (see Fixtures/README.md).
@Suite("Captured session replay")
struct RTMPCaptureReplayTests {
    /// A capture and the handshake role that consumes its first bytes.
    static let captures: [(file: String, role: RTMPHandshake.Role)] = [
        ("nginx-play-server-to-client", .client),
        ("nginx-publish-server-to-client", .client),
        ("ffmpeg-publish-client-to-server", .server),
        ("pyrtmp-publish-server-to-client", .client),
    ]

    static func capture(_ name: String) throws -> ByteBuffer {
        let url = try #require(Bundle.module.url(forResource: name, withExtension: "bin", subdirectory: "Fixtures"))
        return ByteBuffer(bytes: try Data(contentsOf: url))
    }

    /// Completes the handshake in `role`, then decodes chunks fed `step` bytes at a time.
    static func replay(_ input: ByteBuffer, role: RTMPHandshake.Role, step: Int) throws -> (messages: [RTMPRawMessage], leftover: Int) {
        var input = input
        var handshake = RTMPHandshake(role: role)
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

    static func replay(_ name: String, step: Int) throws -> [RTMPMessage] {
        let role = try #require(captures.first { $0.file == name }?.role)
        return try replay(capture(name), role: role, step: step).messages.map { try RTMPMessage($0) }
    }

    @Test("one byte at a time and all at once give the same messages", arguments: captures.map(\.file))
    func sameMessages(file: String) throws {
        let role = try #require(Self.captures.first { $0.file == file }?.role)
        let bytes = try Self.capture(file)
        let whole = try Self.replay(bytes, role: role, step: 1 << 24)
        let bytewise = try Self.replay(bytes, role: role, step: 1)
        #expect(whole.messages.count > 5)
        #expect(whole.messages == bytewise.messages)
        #expect(whole.leftover == bytewise.leftover)
    }

    @Test("nginx → player: control messages, connect result, play status, metadata, sequence headers, frames")
    func play() throws {
        let messages = try Self.replay("nginx-play-server-to-client", step: 4096)
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
        let sps = try #require(record.sequenceParameterSets.first.flatMap(H264SequenceParameterSet.init))
        #expect(sps.width == 320)
        #expect(sps.height == 180)
        #expect(video.dropFirst().allSatisfy { $0.packetType == .nalu })
        #expect(video.dropFirst().first?.isKeyframe == true)
        let audio = try messages.compactMap { if case .audio(let body) = $0 { try FLVAudioTag(parsing: body) } else { nil } }
        let config = try #require(audio.first.map { AACAudioSpecificConfig(Array($0.body.readableBytesView)) } ?? nil)
        #expect(config.sampleRate == 44_100)
        #expect(audio.dropFirst().count > 10)
    }

    @Test("nginx → publisher: Publish.Start then Unpublish.Success")
    func publishStatuses() throws {
        let messages = try Self.replay("nginx-publish-server-to-client", step: 7)
        let codes = messages.compactMap { if case .command(let command) = $0 { command.status?.code } else { nil } }
        #expect(codes == [.connectSuccess, .publishStart, .unpublishSuccess])
    }

    @Test("ffmpeg → nginx: the publish command sequence, metadata and media in order")
    func ffmpegPublish() throws {
        let messages = try Self.replay("ffmpeg-publish-client-to-server", step: 1000)
        let names = messages.compactMap { if case .command(let command) = $0 { command.name } else { nil } }
        #expect(names == ["connect", "releaseStream", "FCPublish", "createStream", "publish", "FCUnpublish", "deleteStream"])
        let publish = try #require(messages.lazy.compactMap { if case .command(let c) = $0, c.name == "publish" { c } else { nil } }.first)
        #expect(publish.arguments == [.string("capture"), .string("live")])
        let data = try #require(messages.lazy.compactMap { if case .data(let data) = $0 { data } else { nil } }.first)
        #expect(data.handler == RTMPDataMessage.Handler.setDataFrame)
        #expect(data.metadata?["width"]?.numberValue == 320)
        let frames = try messages.compactMap { if case .video(let body) = $0 { try FLVVideoTag(parsing: body) } else { nil } }
        #expect(frames.first?.packetType == .sequenceHeader)
        #expect(frames.count > 50)
    }

    @Test("randomly corrupted captures give messages or typed errors, never a crash")
    func corrupted() throws {
        var generator = SystemRandomNumberGenerator()
        let original = Array(try Self.capture("nginx-play-server-to-client").readableBytesView)
        let handshakeLength = 1 + 2 * RTMPHandshake.packetSize
        for _ in 0..<200 {
            var bytes = original
            for _ in 0..<Int.random(in: 1...8, using: &generator) {
                bytes[Int.random(in: handshakeLength..<bytes.count, using: &generator)] = UInt8.random(in: 0...255, using: &generator)
            }
            do {
                for raw in try Self.replay(ByteBuffer(bytes: bytes), role: .client, step: 1 << 24).messages {
                    do {
                        _ = try RTMPMessage(raw)
                    } catch {
                        #expect(!error.description.isEmpty)
                    }
                }
            } catch let error as RTMPChunkDecoder.Error {
                #expect(!error.description.isEmpty)
            }
        }
    }

    @Test("pyrtmp → publisher: format-1 first headers read as zeros on message stream 0; connect, createStream and Publish.Start come out, with one warning")
    func pyrtmpPublish() throws {
        var input = try Self.capture("pyrtmp-publish-server-to-client")
        var handshake = RTMPHandshake(role: .client)
        _ = handshake.start()
        while !handshake.isComplete, try handshake.receive(&input) != .needMoreData {}
        var decoder = RTMPChunkDecoder()
        var raw: [RTMPRawMessage] = []
        var warnings: [String] = []
        while let message = try decoder.decode(&input) {
            raw.append(message)
            if let warning = decoder.takeWarning() { warnings.append(warning) }
        }
        #expect(warnings.count == 1 && warnings.first?.contains("chunk stream 3 starts with a format-1 header") == true, "\(warnings)")
        let commands = try raw.map { try RTMPMessage($0) }.compactMap { if case .command(let command) = $0 { command } else { nil } }
        #expect(commands.map(\.name) == ["_result", "_result", "onStatus"], "\(commands.map(\.name))")
        #expect(commands.last?.status?.code == .publishStart)
        #expect(raw.filter { $0.typeID == 20 }.allSatisfy { $0.messageStreamID == 0 })
    }
}

