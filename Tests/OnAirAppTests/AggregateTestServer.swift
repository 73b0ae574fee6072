import NIOCore
import NIOPosix
import OnAirRTMP

/// A loopback RTMP server of the Red5/Wowza family, written for one test: it answers `connect`,
/// `createStream` and `play`, then plays an FLV's tags in real time as aggregate messages (RTMP spec §7.1.6,
/// five tags each) and ends with UnpublishNotify. Not OnAir's relay, so the subscriber is tested against
/// bytes its own server does not write.
final class AggregateTestServer: Sendable {
    /// How the inner timestamps are written (§7.1.6 allows both).
    enum Style: String, Sendable, CaseIterable {
        /// Counted from the first sub-message of each aggregate (0, 33, 66 …).
        case relative
        /// The stream's own times, equal to the aggregate's for the first sub-message, as Wowza writes them.
        case absolute
    }

    static let tagsPerAggregate = 5
    let channel: any Channel
    var port: Int { channel.localAddress?.port ?? 0 }

    /// `noise`: with every aggregate, a shared-object message (type 19) and one of type 30, which no RTMP
    /// spec defines, that a player cannot use. `burst`: every aggregate at once instead of in real time, as
    /// a server that dumps a recording (or a long catch-up) does.
    init(tags: [FLVTag], style: Style, noise: Bool = false, burst: Bool = false) async throws {
        channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(Handler(tags: tags, style: style, noise: noise, burst: burst))
                }
            }
            .bind(host: "127.0.0.1", port: 0).get()
    }

    func stop() async {
        try? await channel.close()
    }

    /// One player's connection.
    final class Handler: ChannelInboundHandler {
        typealias InboundIn = ByteBuffer
        typealias OutboundOut = ByteBuffer

        private let tags: [FLVTag]
        private let style: Style
        private let noise: Bool
        private let burst: Bool
        private let processor = NIOSingleStepByteToMessageProcessor(RTMPInboundDecoder(handshake: RTMPHandshake(role: .server)))
        private var encoder = RTMPChunkEncoder()
        private static let streamID: UInt32 = 1

        init(tags: [FLVTag], style: Style, noise: Bool, burst: Bool) {
            self.burst = burst
            self.tags = tags
            self.style = style
            self.noise = noise
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

        private func send(_ message: RTMPMessage, streamID: UInt32 = 0, context: ChannelHandlerContext) {
            send(message.raw(messageStreamID: streamID), context: context)
        }

        private func send(_ raw: RTMPRawMessage, context: ChannelHandlerContext) {
            var out = context.channel.allocator.buffer(capacity: raw.payload.readableBytes + 64)
            encoder.encode(raw, into: &out)
            context.writeAndFlush(wrapOutboundOut(out), promise: nil)
        }

        private func handle(_ raw: RTMPRawMessage, context: ChannelHandlerContext) {
            guard case .command(let command)? = try? RTMPMessage(raw) else { return }
            switch command.name {
            case RTMPCommand.Name.connect:
                send(.windowAcknowledgementSize(2_500_000), context: context)
                send(.setChunkSize(4096), context: context)
                encoder.setChunkSize(4096)
                let info = RTMPStatus(code: .connectSuccess, level: .status, description: "Connection succeeded.").info
                send(.command(.result(transactionID: command.transactionID, commandObject: .object(["fmsVer": .string("WowzaStreamingEngine/4")]),
                                      arguments: [info])), context: context)
            case RTMPCommand.Name.createStream:
                send(.command(.result(transactionID: command.transactionID, arguments: [.number(Double(Self.streamID))])), context: context)
            case RTMPCommand.Name.play:
                send(.userControl(.streamBegin(streamID: Self.streamID)), context: context)
                send(.command(.onStatus(RTMPStatus(code: .playReset, level: .status))), streamID: Self.streamID, context: context)
                send(.command(.onStatus(RTMPStatus(code: .playStart, level: .status))), streamID: Self.streamID, context: context)
                play(from: 0, start: NIODeadline.now(), context: context)
            default:
                break
            }
        }

        /// Sends the aggregate starting at tag `index` when its first tag is due, then schedules the next.
        private func play(from index: Int, start: NIODeadline, context: ChannelHandlerContext) {
            guard index < tags.count else {
                send(.command(.onStatus(RTMPStatus(code: .playUnpublishNotify, level: .status))), streamID: Self.streamID, context: context)
                send(.userControl(.streamEOF(streamID: Self.streamID)), context: context)
                return
            }
            let group = Array(tags[index..<min(index + AggregateTestServer.tagsPerAggregate, tags.count)])
            let first = group[0].timestamp
            let inner = group.map { tag in
                FLVTag(type: tag.type, timestamp: style == .relative ? tag.timestamp &- first : tag.timestamp, data: tag.data)
            }
            send(RTMPRawMessage(chunkStreamID: RTMPMessage.ChunkStream.video, timestamp: first,
                                typeID: RTMPMessageType.aggregate.rawValue, messageStreamID: Self.streamID,
                                payload: RTMPAggregateMessage.body(inner)), context: context)
            for typeID: UInt8 in noise ? [RTMPMessageType.sharedObjectAMF0.rawValue, 30] : [] {
                send(RTMPRawMessage(chunkStreamID: RTMPMessage.ChunkStream.data, timestamp: first, typeID: typeID,
                                    messageStreamID: Self.streamID, payload: ByteBuffer(bytes: [0, 1, 2, 3])), context: context)
            }
            let next = index + AggregateTestServer.tagsPerAggregate
            if burst { return play(from: next, start: start, context: context) }
            let due = start + .milliseconds(Int64(tags[min(next, tags.count - 1)].timestamp))
            context.eventLoop.assumeIsolated().scheduleTask(deadline: due) { [self] in
                guard context.channel.isActive else { return }
                play(from: next, start: start, context: context)
            }
        }
    }
}
