import NIOCore
import NIOEmbedded
@testable import OnAirNet
import OnAirRTMP
import Synchronization
import Testing

/// The client handler's protocol duties, driven byte-exactly through NIO's EmbeddedChannel with a real
/// server-role handshake and chunk encoder on the other side.
@Suite("RTMP client channel handler")
struct RTMPClientChannelHandlerTests {
    /// What the handler reported to its owner.
    final class Recorder: Sendable {
        let incoming = Mutex<[RTMPClient.Incoming]>([])
        let closed = Mutex<[RTMPClient.Error?]>([])
    }

    /// One handler on an EmbeddedChannel whose peer is a server-role handshake plus a chunk encoder.
    final class Harness {
        let loop = EmbeddedEventLoop()
        let channel: EmbeddedChannel
        let handler: RTMPClientChannelHandler
        let recorder = Recorder()
        var serverEncoder = RTMPChunkEncoder()
        var clientDecoder = RTMPChunkDecoder()

        init(completeHandshake: Bool = true) throws {
            channel = EmbeddedChannel(loop: loop)
            let recorder = self.recorder
            handler = RTMPClientChannelHandler(
                eventLoop: loop, responseTimeout: .seconds(5),
                onIncoming: { message in recorder.incoming.withLock { $0.append(message) } },
                onClose: { error in recorder.closed.withLock { $0.append(error) } })
            try channel.pipeline.syncOperations.addHandler(handler)
            try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 1935)).wait()
            var c0c1 = try #require(try channel.readOutbound(as: ByteBuffer.self))
            guard completeHandshake else { return }
            #expect(c0c1.readableBytes == 1 + RTMPHandshake.packetSize)
            var server = RTMPHandshake(role: .server)
            guard case .send(let reply) = try server.receive(&c0c1) else { throw RTMPClient.Error.handshakeFailed("no S0-S2") }
            try channel.writeInbound(reply)
            let c2 = try #require(try channel.readOutbound(as: ByteBuffer.self))
            #expect(c2.readableBytes == RTMPHandshake.packetSize)
            try handler.handshakeFuture.wait()
        }

        /// Sends server messages to the client in one read.
        func serverSends(_ messages: [RTMPRawMessage]) throws {
            var bytes = ByteBuffer()
            for message in messages { serverEncoder.encode(message, into: &bytes) }
            try channel.writeInbound(bytes)
        }

        /// Everything the client wrote since the handshake, decoded.
        func clientSent() throws -> [RTMPMessage] {
            var messages: [RTMPMessage] = []
            while var bytes = try channel.readOutbound(as: ByteBuffer.self) {
                while let raw = try clientDecoder.decode(&bytes) { messages.append(try RTMPMessage(raw)) }
            }
            return messages
        }
    }

    @Test("answers PingRequest with PingResponse carrying the same timestamp")
    func ping() throws {
        let harness = try Harness()
        try harness.serverSends([RTMPMessage.userControl(.pingRequest(timestamp: 4242)).raw()])
        #expect(try harness.clientSent() == [.userControl(.pingResponse(timestamp: 4242))])
    }

    @Test("acknowledges received bytes once per window (RTMP spec §5.4.3)")
    func acknowledgements() throws {
        let harness = try Harness()
        try harness.serverSends([RTMPMessage.windowAcknowledgementSize(5000).raw()])
        #expect(try harness.clientSent().isEmpty)
        let audio = RTMPMessage.audio(ByteBuffer(bytes: Array(repeating: 0xAF, count: 3000))).raw(messageStreamID: 1)
        try harness.serverSends([audio])
        let first = try harness.clientSent()
        try harness.serverSends([audio])
        let second = try harness.clientSent()
        #expect(first.isEmpty)
        guard case .acknowledgement(let sequence) = try #require(second.first) else {
            Issue.record("expected an Acknowledgement, got \(second)")
            return
        }
        // Two 3000-byte messages plus chunk headers; handshake bytes are not counted.
        #expect((6000..<6200).contains(Int(sequence)))
        #expect(harness.recorder.incoming.withLock { $0.count } == 3)
    }

    @Test("chunk bytes that arrive in the same read as S0+S1+S2 are acknowledged; the handshake's are not")
    func acknowledgementCountsChunksReadWithTheHandshake() throws {
        let harness = try Harness(completeHandshake: false)
        var server = RTMPHandshake(role: .server)
        var hello = ByteBuffer(bytes: [3] + [UInt8](repeating: 0, count: RTMPHandshake.packetSize))
        guard case .send(var read) = try server.receive(&hello) else { throw RTMPClient.Error.handshakeFailed("no S0-S2") }
        var chunks = ByteBuffer()
        harness.serverEncoder.encode(RTMPMessage.windowAcknowledgementSize(100).raw(), into: &chunks)
        harness.serverEncoder.encode(RTMPMessage.audio(ByteBuffer(bytes: Array(repeating: 0xAF, count: 300))).raw(messageStreamID: 1), into: &chunks)
        let chunkBytes = chunks.readableBytes
        read.writeBuffer(&chunks)
        try harness.channel.writeInbound(read)
        try harness.handler.handshakeFuture.wait()
        let c2 = try #require(try harness.channel.readOutbound(as: ByteBuffer.self))
        #expect(c2.readableBytes == RTMPHandshake.packetSize)
        #expect(try harness.clientSent() == [.acknowledgement(sequenceNumber: UInt32(chunkBytes))])
    }

    @Test("matches _result and _error to their transaction IDs")
    func transactions() throws {
        let harness = try Harness()
        let handler = harness.handler
        let results: EventLoopFuture<[RTMPCommand]> = {
            let first = handler.call(.createStream(transactionID: 0))
            let second = handler.call(.createStream(transactionID: 0))
            return first.and(second.recover { _ in RTMPCommand(name: "failed", transactionID: -1) }).map { [$0, $1] }
        }()
        let sent = try harness.clientSent()
        let ids = sent.compactMap { if case .command(let command) = $0 { command.transactionID } else { nil } }
        #expect(ids.count == 2)
        try harness.serverSends([
            RTMPMessage.command(.error(transactionID: ids[1], status: RTMPStatus(code: "NetConnection.Call.Failed", level: .error))).raw(),
            RTMPMessage.command(.result(transactionID: ids[0], arguments: [.number(7)])).raw(),
        ])
        let commands = try results.wait()
        #expect(commands[0].arguments == [.number(7)])
        #expect(commands[1].name == "failed")
    }

    @Test("an unanswered command fails with responseTimedOut when its timeout passes")
    func timeout() throws {
        let harness = try Harness()
        let result = harness.handler.call(.createStream(transactionID: 0))
        harness.loop.advanceTime(by: .seconds(6))
        #expect(throws: RTMPClient.Error.responseTimedOut(command: "createStream")) { try result.wait() }
    }

    @Test("a hostile chunk stream closes the connection with a protocol violation")
    func hostile() throws {
        let harness = try Harness()
        try harness.serverSends([RTMPMessage.setChunkSize(0x8000_0000).raw()])
        let closed = harness.recorder.closed.withLock { $0 }
        #expect(closed.count == 1)
        guard case .protocolViolation(let reason)?? = closed.first else {
            Issue.record("expected protocolViolation, got \(closed)")
            return
        }
        #expect(reason.contains("chunk size"))
        #expect(!harness.channel.isActive)
    }

    @Test("aborting an unfinished handshake (the owner's timeout) fails it with that error and closes")
    func handshakeTimeout() throws {
        let harness = try Harness(completeHandshake: false)
        harness.handler.abort(with: .handshakeTimedOut)
        #expect(throws: RTMPClient.Error.handshakeTimedOut) { try harness.handler.handshakeFuture.wait() }
        #expect(!harness.channel.isActive)
        #expect(harness.recorder.closed.withLock { $0 } == [.handshakeTimedOut])
    }

    @Test("the peer closing during the handshake reads as a handshake failure, not a lost connection")
    func closedDuringHandshake() throws {
        let harness = try Harness(completeHandshake: false)
        harness.channel.pipeline.fireChannelInactive()
        do {
            try harness.handler.handshakeFuture.wait()
            Issue.record("the handshake completed")
        } catch let error as RTMPClient.Error {
            guard case .handshakeFailed = error else {
                Issue.record("expected handshakeFailed, got \(error)")
                return
            }
        }
    }
}
