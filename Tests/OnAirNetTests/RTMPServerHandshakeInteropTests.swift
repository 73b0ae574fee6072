import Foundation
import OnAirTestSupport
import NIOCore
import NIOPosix
import OnAirRTMP
import Synchronization
import Testing

/// RTMPHandshake's server role (which the embedded relay will use) against real clients: ffmpeg and
/// rtmpdump complete the handshake with it and then send a `connect` that our chunk decoder reads.
@Suite("RTMP server handshake with real clients", .serialized, .timeLimit(.minutes(5)))
struct RTMPServerHandshakeInteropTests {
    /// Server side under test: handshake (server role) then chunk decoding until the first command.
    final class HandshakeThenConnect: ChannelInboundHandler {
        typealias InboundIn = ByteBuffer
        typealias OutboundOut = ByteBuffer
        private var handshake = RTMPHandshake(role: .server)
        private var decoder = RTMPChunkDecoder()
        private var inbox = ByteBuffer()
        private let onCommand: @Sendable (RTMPCommand?) -> Void

        init(onCommand: @escaping @Sendable (RTMPCommand?) -> Void) { self.onCommand = onCommand }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            var bytes = unwrapInboundIn(data)
            inbox.writeBuffer(&bytes)
            do {
                while !handshake.isComplete {
                    switch try handshake.receive(&inbox) {
                    case .needMoreData: return
                    case .send(let reply): context.writeAndFlush(wrapOutboundOut(reply), promise: nil)
                    case .complete: break
                    }
                }
                while let raw = try decoder.decode(&inbox) {
                    if case .command(let command) = try RTMPMessage(raw) {
                        onCommand(command)
                        context.close(promise: nil)
                        return
                    }
                }
            } catch {
                onCommand(nil)
                context.close(promise: nil)
            }
        }
    }

    static func firstCommand(from client: String, _ arguments: (String) -> [String]) async throws -> RTMPCommand? {
        let directory = try TestEnvironment.makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let received = Mutex<[RTMPCommand?]>([])
        let group = MultiThreadedEventLoopGroup.singleton
        let server = try await ServerBootstrap(group: group)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(HandshakeThenConnect { command in
                        received.withLock { $0.append(command) }
                    })
                }
            }
            .bind(host: "127.0.0.1", port: 0).get()
        let port = try #require(server.localAddress?.port)
        let peer = try PeerProcess(client, arguments("rtmp://127.0.0.1:\(port)/live/handshake"), in: directory)
        // Until the command arrives or the client gives up; 60 s is a safety net (was 15 s for the exit; issue 24).
        let deadline = ContinuousClock.now + .seconds(60)
        while received.withLock({ $0.isEmpty }) && peer.isRunning && ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(20))
        }
        peer.stop()
        try await server.close()
        return received.withLock { $0.first ?? nil }
    }

    @Test("ffmpeg completes the handshake with the server role and sends connect(app: live)")
    func ffmpeg() async throws {
        let connect = try #require(try await Self.firstCommand(from: "ffmpeg") { ["-v", "error", "-i", $0, "-f", "null", "-"] })
        #expect(connect.name == RTMPCommand.Name.connect)
        #expect(connect.commandObject["app"]?.stringValue == "live")
        #expect(connect.commandObject["tcUrl"]?.stringValue?.hasSuffix("/live") == true)
    }

    @Test("rtmpdump (librtmp) completes the handshake with the server role and sends connect(app: live)")
    func rtmpdump() async throws {
        let connect = try #require(try await Self.firstCommand(from: "rtmpdump") { ["--live", "-r", $0, "-o", "/dev/null"] })
        #expect(connect.name == RTMPCommand.Name.connect)
        #expect(connect.commandObject["app"]?.stringValue == "live")
    }
}
