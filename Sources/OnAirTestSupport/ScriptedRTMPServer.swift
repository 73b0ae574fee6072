import NIOCore
import NIOPosix
import NIOSSL
import OnAirRTMP
import Synchronization

/// A small RTMP server on loopback that tests script: it records every command a client sends (to check
/// what OnAir puts on the wire), answers `connect`, `createStream`, `publish` and `play` as a server would,
/// and then, if asked, attacks the client the way a hostile server could (issue 29): a ping flood while it
/// never reads, or a flood of data messages. Over TLS when given a certificate (`rtmps://`).
///
/// Every flood is bounded (`floodLimit` bytes per connection) and ends when the client goes, so a test
/// that fails never leaves a server writing forever.
public final class ScriptedRTMPServer: Sendable {
    /// What the server does once a client's `publish` or `play` has been answered.
    public enum Attack: Sendable, Equatable {
        /// Nothing: it keeps reading and stays quiet.
        case none
        /// User Control Ping Requests as fast as the socket takes them, and it stops reading: every answer
        /// the client queues stays unread.
        case pingFlood
        /// `onTextData` data messages as fast as the socket takes them, reading on.
        case dataFlood(text: String)
    }

    /// The most one connection's flood writes by default (8 GiB): a bound in bytes, not a clock.
    public static let defaultFloodLimit: Int64 = 8 << 30

    public let port: Int
    private let channel: any Channel
    private let recorded = Recorded()

    /// The commands received, shared with the connections' handlers.
    private final class Recorded: Sendable {
        let commands = Mutex<[RTMPCommand]>([])
    }

    /// Starts on a free loopback port; `certificateFile`/`keyFile` (PEM) make it an `rtmps://` server.
    public init(attack: Attack = .none, floodLimit: Int64 = ScriptedRTMPServer.defaultFloodLimit, certificateFile: String? = nil, keyFile: String? = nil) throws {
        let tls: NIOSSLContext? = try certificateFile.map { certificate in
            let chain = try NIOSSLCertificate.fromPEMFile(certificate).map { NIOSSLCertificateSource.certificate($0) }
            let key = try NIOSSLPrivateKey(file: keyFile ?? "", format: .pem)
            return try NIOSSLContext(configuration: .makeServerConfiguration(certificateChain: chain, privateKey: .privateKey(key)))
        }
        let recorded = self.recorded
        let record: @Sendable (RTMPCommand) -> Void = { command in
            recorded.commands.withLock { $0.append(command) }
        }
        channel = try ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    if let tls { try channel.pipeline.syncOperations.addHandler(NIOSSLServerHandler(context: tls)) }
                    try channel.pipeline.syncOperations.addHandler(ScriptedConnection(attack: attack, floodLimit: floodLimit, record: record))
                }
            }
            .bind(host: "127.0.0.1", port: 0).wait()
        port = channel.localAddress?.port ?? 0
    }

    /// The commands received so far.
    public var received: [RTMPCommand] { recorded.commands.withLock { $0 } }

    /// Waits until `count` commands named `name` have arrived and returns them; fewer once `timeout` has
    /// passed (a bound for a failing test, never a pace: it returns as soon as they are there).
    public func commands(named name: String, count: Int = 1, within timeout: Duration = .seconds(60)) async -> [RTMPCommand] {
        let deadline = ContinuousClock.now + timeout
        while true {
            let matching = received.filter { $0.name == name }
            if matching.count >= count || ContinuousClock.now >= deadline { return matching }
            try? await Task.sleep(for: .milliseconds(20))
        }
    }

    public func stop() {
        try? channel.close().wait()
    }

    deinit {
        channel.close(promise: nil)
    }
}

/// One client connection of ``ScriptedRTMPServer``, on its event loop.
final class ScriptedConnection: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private let attack: ScriptedRTMPServer.Attack
    private let floodLimit: Int64
    private let record: @Sendable (RTMPCommand) -> Void
    private let processor = NIOSingleStepByteToMessageProcessor(RTMPInboundDecoder(handshake: RTMPHandshake(role: .server)))
    private var encoder = RTMPChunkEncoder()
    private var attacking = false
    private var flooded: Int64 = 0
    private var pingTimestamp: UInt32 = 0

    init(attack: ScriptedRTMPServer.Attack, floodLimit: Int64, record: @escaping @Sendable (RTMPCommand) -> Void) {
        self.attack = attack
        self.floodLimit = floodLimit
        self.record = record
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        do {
            try processor.process(buffer: unwrapInboundIn(data)) { step in
                switch step {
                case .handshakeReply(let reply): context.writeAndFlush(wrapOutboundOut(reply), promise: nil)
                case .handshakeComplete: break
                case .message(let raw, _): handle(raw, context: context)
                }
            }
        } catch {
            context.close(promise: nil)
        }
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        if attacking { flood(context: context) }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }

    private func handle(_ raw: RTMPRawMessage, context: ChannelHandlerContext) {
        guard let message = try? RTMPMessage(raw), case .command(let command) = message else { return }
        record(command)
        switch command.name {
        case RTMPCommand.Name.connect:
            send(.setChunkSize(4096), context: context)
            encoder.setChunkSize(4096)
            let success = RTMPStatus(code: .connectSuccess, level: .status, description: "Connection succeeded.")
            send(.command(.result(transactionID: command.transactionID, commandObject: .object(["fmsVer": .string("FMS/3,0,1,123")]),
                                  arguments: [success.info])), context: context)
        case RTMPCommand.Name.createStream:
            send(.command(.result(transactionID: command.transactionID, arguments: [.number(1)])), context: context)
        case RTMPCommand.Name.publish, RTMPCommand.Name.play:
            let code: RTMPStatus.Code = command.name == RTMPCommand.Name.publish ? .publishStart : .playStart
            send(.command(.onStatus(RTMPStatus(code: code, level: .status, description: "scripted"))), streamID: raw.messageStreamID,
                 context: context)
            guard attack != .none else { return }
            attacking = true
            // A ping flood never reads again: the client's answers stay queued on its side.
            if attack == .pingFlood { context.channel.setOption(ChannelOptions.autoRead, value: false).whenComplete { _ in } }
            flood(context: context)
        default:
            break
        }
    }

    /// Writes attack messages while the socket takes them (NIO calls back when it is writable again).
    private func flood(context: ChannelHandlerContext) {
        while context.channel.isWritable, context.channel.isActive, flooded < floodLimit {
            var out = context.channel.allocator.buffer(capacity: 64 << 10)
            for _ in 0..<256 {
                switch attack {
                case .pingFlood:
                    pingTimestamp &+= 1
                    encoder.encode(RTMPMessage.userControl(.pingRequest(timestamp: pingTimestamp)).raw(), into: &out)
                case .dataFlood(let text):
                    let data = RTMPDataMessage(handler: "onTextData", arguments: [.string(text)])
                    encoder.encode(RTMPMessage.data(data).raw(messageStreamID: 1), into: &out)
                case .none:
                    return
                }
            }
            flooded += Int64(out.readableBytes)
            context.write(wrapOutboundOut(out), promise: nil)
        }
        context.flush()
    }

    private func send(_ message: RTMPMessage, streamID: UInt32 = 0, context: ChannelHandlerContext) {
        var out = context.channel.allocator.buffer(capacity: 256)
        encoder.encode(message.raw(messageStreamID: streamID), into: &out)
        context.writeAndFlush(wrapOutboundOut(out), promise: nil)
    }
}
