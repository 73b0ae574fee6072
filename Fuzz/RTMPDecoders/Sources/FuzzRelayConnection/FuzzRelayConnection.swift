import FuzzDriver
import Foundation
import NIOCore
import NIOEmbedded
import OnAirCore
import OnAirRTMP

/// libFuzzer's entry point: the whole relay — its real connection handler, stream registry, fan-out, GOP
/// cache, recorder and interruptions, compiled from the shipped sources (`OnAirRelay` is a symlink to them;
/// only `RelayServer.swift`, the socket bootstrap, is left out) — driven by up to eight peers on
/// `EmbeddedChannel`s of one `EmbeddedEventLoop`, whose clock the script advances.
///
/// The input is a script. Its first byte picks the relay's configuration (``RelayFuzzSession/init(options:)``);
/// then each step is one byte, `b % 8` the action and `b / 8` its argument, followed by the bytes it reads:
///
/// | `b % 8` | step | reads |
/// |---|---|---|
/// | 0 | a new peer from address `10.0.0.(arg % 4)` (at most 24 an input) | — |
/// | 1 | raw bytes to peer `arg % 8` (handshake, broken framing) | length byte, bytes |
/// | 2 | quick start of peer `arg % 8`: C0+C1, C2 echoing S1, `connect`, `createStream` | — |
/// | 3 | one message, chunked by the peer's encoder | chunk stream, type, stream, time (2), length (2), bytes |
/// | 4 | one command or data message from a template (``sendTemplate``) | template, name, number |
/// | 5 | one audio or video message with a real FLV tag header | kind, time (2), length, bytes |
/// | 6 | the clock moves on `(byte + 1) × 8` ms (255: 6 s) | byte |
/// | 7 | peer closes, its socket stops taking bytes or drains, or a `server-*` interruption | byte |
///
/// Findings: a trap or sanitizer report; the relay writing any peer a stream that is not RTMP (``RelayFuzzPeer``);
/// an event string with a control character, a play counting more bytes than its connection wrote, or a
/// connection counting other than what its peer received (``RelayFuzzEventCheck``); a queue or GOP cache past its bound (``RelayFuzzSession/settle()``); a connection
/// left registered once every peer has closed and the relay has shut down.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRelayConnection(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    var script = FuzzScript(data, size)
    guard let options = script.byte() else { return 0 }
    let session = RelayFuzzSession(options: options)
    session.run(&script)
    session.finish()
    return 0
}

/// SwiftPM points the program's `main` at `<module>_main`.
@_cdecl("FuzzRelayConnection_main")
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runLibFuzzer(argc, argv, fuzzRelayConnection)
}

/// One relay and its peers for one input.
final class RelayFuzzSession {
    private let loop = EmbeddedEventLoop()
    private let registry: RelayStreamRegistry
    private var peers: [RelayFuzzPeer?] = Array(repeating: nil, count: 8)
    private let recordDirectory: URL?
    private var transaction = 10.0
    private var opened = 0
    /// Stream names the templates use: plain, with a key, with an application, empty, hostile.
    private static let names = ["a", "b", "a?key=k", "live2/a", "", "../a", "a\u{1B}]0;pwned\u{07}", "x\u{9B}2J"]

    /// Bit 0: a publish key ("k"); bit 1: recording into a scratch directory; bits 2–3: record mode;
    /// bit 4: audio merged into video (40 ms) or sent at once; bit 5: the relay's chunk size 128 or 4096;
    /// bit 6: a small player queue and GOP cache (drops and skips to keyframes come sooner).
    init(options: UInt8) {
        var configuration = RelayConfiguration()
        configuration.publishKey = options & 1 != 0 ? "k" : nil
        if options & 2 != 0 {
            let directory = URL(fileURLWithPath: NSTemporaryDirectory())
                .appendingPathComponent("onair-fuzz-relay-\(getpid())", isDirectory: true)
            try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            configuration.recordDirectory = directory
            recordDirectory = directory
        } else {
            recordDirectory = nil
        }
        configuration.recordMode = [.byType, .all, .none, .byType][Int(options >> 2) & 3]
        configuration.audioMergeWindow = options & 16 != 0 ? nil : .milliseconds(40)
        configuration.chunkSize = options & 32 != 0 ? 128 : 4096
        if options & 64 != 0 {
            configuration.playerQueueLimit = 16 << 10
            configuration.gopCacheLimit = 32 << 10
        }
        configuration.maxConnectionsPerAddress = 3
        configuration.maxPartialMessageBytes = 1 << 20
        RelayFuzzEventCheck.reset()
        registry = RelayStreamRegistry(eventLoop: loop, configuration: configuration, emit: { RelayFuzzEventCheck.check($0) })
        registry.start()
    }

    func run(_ script: inout FuzzScript) {
        var steps = 0
        while steps < 400, let step = script.byte() {
            steps += 1
            let argument = Int(step >> 3)
            switch step & 7 {
            case 0: open(address: argument % 4)
            case 1: send(script.take(Int(script.byte() ?? 0)), to: argument % 8)
            case 2: quickStart(argument % 8)
            case 3: sendMessage(&script, to: argument % 8)
            case 4: sendTemplate(&script, to: argument % 8)
            case 5: sendMedia(&script, to: argument % 8)
            case 6:
                let amount = Int(script.byte() ?? 0)
                loop.advanceTime(by: amount == 255 ? .seconds(6) : .milliseconds(Int64(amount + 1) * 8))
            default: misc(Int(script.byte() ?? 0), peer: argument % 8)
            }
            settle()
        }
    }

    /// Every peer leaves, the relay shuts down, and nothing may stay registered.
    func finish() {
        settle()
        if RelayFuzzEventCheck.traces {
            for (slot, peer) in peers.enumerated() { if let peer { print("peer \(slot): \(peer.bytesFromRelay) bytes from the relay") } }
        }
        for peer in peers.compactMap({ $0 }) where peer.channel.isActive {
            peer.channel.pipeline.fireChannelReadComplete()     // each leaves as NIO reports an EOF
            peer.channel.close(promise: nil)
        }
        settle()
        registry.shutdown()
        loop.advanceTime(by: .seconds(30))
        settle()
        precondition(registry.connections.isEmpty, "\(registry.connections.count) connections still registered after shutdown")
        for index in peers.indices { _ = try? peers[index]?.channel.finish(acceptAlreadyClosed: true) }
        try? loop.syncShutdownGracefully()
        if let recordDirectory { try? FileManager.default.removeItem(at: recordDirectory) }
    }

    /// Runs what the steps scheduled, checks what the relay wrote and that what it holds stays bounded: a
    /// connection's queue (media to its limit, sequence headers and data to twice that, control until the
    /// connection is closed for it) and each stream's GOP cache.
    private func settle() {
        loop.run()
        for peer in peers.compactMap({ $0 }) {
            peer.drain()
            peer.channel.embeddedEventLoop.run()
            RelayFuzzEventCheck.checkCount(of: peer, open: registry.connections[peer.connection])
        }
        let configuration = registry.configuration
        let queueBound = 2 * configuration.playerQueueLimit + 2 * configuration.maxQueuedControlBytes
        for handler in registry.connections.values {
            precondition(handler.queuedBytes <= queueBound, "connection \(handler.id) queues \(handler.queuedBytes) bytes")
        }
        for stream in registry.streams.values {
            precondition(stream.cache.gopBytes <= configuration.gopCacheLimit, "\(stream.name) caches \(stream.cache.gopBytes) bytes")
        }
    }

    private func open(address: Int) {
        // Each connection costs a handshake's random bytes and a few events: bounded, so a run of zero bytes
        // does not spend the input's time opening hundreds of them.
        guard opened < 24, let slot = peers.firstIndex(where: { $0 == nil || !$0!.channel.isActive }) else { return }
        opened += 1
        let channel = EmbeddedChannel(loop: loop)
        let handler = RelayConnectionHandler(registry: registry)
        let socketBuffer = HeldSocketBuffer(channel: channel)
        do {
            try channel.pipeline.syncOperations.addHandler(socketBuffer)
            try channel.pipeline.syncOperations.addHandler(handler)
            channel.connect(to: try SocketAddress(ipAddress: "10.0.0.\(address + 1)", port: 40_000 + slot), promise: nil)
        } catch {
            preconditionFailure("an embedded channel refused its handler: \(error)")
        }
        peers[slot] = RelayFuzzPeer(channel: channel, connection: handler.id, socketBuffer: socketBuffer)
    }

    private func peer(_ index: Int) -> RelayFuzzPeer? {
        guard let peer = peers[index], peer.channel.isActive else { return nil }
        return peer
    }

    private func send(_ bytes: [UInt8], to index: Int) {
        guard let peer = peer(index), !bytes.isEmpty else { return }
        _ = try? peer.channel.writeInbound(ByteBuffer(bytes: bytes))
    }

    private func send(_ message: RTMPRawMessage, to index: Int) {
        guard let peer = peer(index) else { return }
        var buffer = ByteBuffer()
        peer.encoder.encode(message, into: &buffer)
        if message.typeID == 1, message.payload.readableBytes >= 4,
           let size = message.payload.getInteger(at: message.payload.readerIndex, as: UInt32.self) {
            peer.encoder.setChunkSize(Int(size & 0x7FFF_FFFF))      // §5.4.1: the first bit is reserved
        }
        _ = try? peer.channel.writeInbound(buffer)
    }

    private func send(_ command: RTMPCommand, streamID: UInt32 = 0, to index: Int) {
        send(RTMPMessage.command(command).raw(messageStreamID: streamID), to: index)
    }

    /// C0+C1, then C2 echoing the relay's S1, `connect` to `live` (with the key when the relay wants one) and
    /// `createStream`: a peer ready to publish or play in one step.
    private func quickStart(_ index: Int) {
        guard let peer = peer(index) else { return }
        send([3] + [UInt8](repeating: 7, count: RTMPFuzzHandshake.packetLength), to: index)
        settle()
        guard peer.serverHello.count == RTMPFuzzHandshake.packetLength else { return }
        send(Array(peer.serverHello), to: index)
        let app = registry.configuration.publishKey == nil ? "live" : "live?key=k"
        send(.connect(transactionID: 1, app: app, tcURL: "rtmp://10.0.0.9/\(app)"), to: index)
        send(.createStream(transactionID: 2), to: index)
    }

    /// A message of any type on any chunk stream and message stream, chunked as the peer's encoder does.
    private func sendMessage(_ script: inout FuzzScript, to index: Int) {
        let chunkStream = UInt32(script.byte() ?? 0)
        let type = script.byte() ?? 0
        let stream = script.byte() ?? 0
        let time = UInt32(script.number16()) * 16
        let payload = script.take(script.number16() % 2048)
        send(RTMPRawMessage(
            chunkStreamID: chunkStream < 2 ? 2 + chunkStream : (chunkStream > 250 ? 64 + chunkStream * 200 : chunkStream),
            timestamp: time, typeID: type, messageStreamID: streamID(stream, of: index), payload: ByteBuffer(bytes: payload)),
            to: index)
    }

    /// The peer's `selector`-th stream from `createStream` (1 when it has none), or a raw number.
    private func streamID(_ selector: UInt8, of index: Int) -> UInt32 {
        guard selector < 200 else { return UInt32(selector) * 1000 }
        let known = peers[index]?.streamIDs ?? []
        return known.isEmpty ? 1 : known[Int(selector) % known.count]
    }

    /// The commands a publisher or player sends (RTMP spec §7.2), with names from ``names`` or the input.
    private func sendTemplate(_ script: inout FuzzScript, to index: Int) {
        let template = Int(script.byte() ?? 0)
        let nameByte = Int(script.byte() ?? 0)
        let number = Double(Int8(bitPattern: script.byte() ?? 0))
        let name = nameByte < 240 ? Self.names[nameByte % Self.names.count] : String(decoding: script.take(nameByte - 230), as: UTF8.self)
        let stream = streamID(UInt8(nameByte & 0x7F), of: index)
        transaction += 1
        switch template % 12 {
        case 0: send(.connect(transactionID: 1, app: nameByte & 1 == 0 ? "live" : "live?key=k", tcURL: "rtmp://h/live"), to: index)
        case 1: send(.createStream(transactionID: transaction), to: index)
        case 2: send(.publish(transactionID: transaction, name: name, type: PublishType.allCases[(Int(number) & 0xFF) % 3]),
                     streamID: stream, to: index)
        case 3: send(.play(transactionID: transaction, name: name, start: number), streamID: stream, to: index)
        case 4: send(.deleteStream(transactionID: transaction, streamID: UInt32(max(0, number))), to: index)
        case 5: send(.fcPublish(transactionID: transaction, name: name), to: index)
        case 6: send(.fcUnpublish(transactionID: transaction, name: name), to: index)
        case 7: send(RTMPCommand(name: "closeStream", transactionID: transaction), streamID: stream, to: index)
        case 8:
            let metadata = AMF0Value.ecmaArray(["width": .number(number * 97), "height": .number(1e300), "framerate": .number(.nan),
                                                "videodatarate": .number(-number), "title": .string(name)])
            send(RTMPMessage.data(.setDataFrame(metadata: metadata)).raw(messageStreamID: stream), to: index)
        case 9: send(RTMPCommand(name: "receiveVideo", transactionID: 0, arguments: [.boolean(number < 0)]), streamID: stream, to: index)
        case 10: send(.releaseStream(transactionID: transaction, name: name), to: index)
        default: send(RTMPCommand(name: name, transactionID: number, arguments: [.string(name), .number(number)]), streamID: stream, to: index)
        }
    }

    /// Audio or video with a real FLV tag header (FLV spec E.4.2, E.4.3) and the input's bytes as its body.
    private func sendMedia(_ script: inout FuzzScript, to index: Int) {
        let kind = Int(script.byte() ?? 0)
        let time = UInt32(script.number16()) * 8
        let body = script.take(Int(script.byte() ?? 0) * 4)
        let headers: [[UInt8]] = [
            [0x17, 0x00, 0, 0, 0, 1, 0x42, 0xC0, 0x1E, 0xFF, 0xE1],      // AVC sequence header (avcC's start)
            [0x17, 0x01, 0, 0, 0], [0x27, 0x01, 0, 0, 0x21], [0x27, 0x02, 0, 0, 0],
            [0x90, 0x68, 0x76, 0x63, 0x31],                             // Enhanced RTMP: HEVC sequence start
            [0xAF, 0x00, 0x12, 0x10], [0xAF, 0x01], [0x2F], [0x52], [],
        ]
        let header = headers[kind % headers.count]
        let isVideo = kind % headers.count < 5 || (kind % headers.count == 9 && kind & 16 != 0)
        send(RTMPRawMessage(
            chunkStreamID: isVideo ? 6 : 4, timestamp: time, typeID: isVideo ? 9 : 8,
            messageStreamID: streamID(UInt8(kind >> 5), of: index), payload: ByteBuffer(bytes: header + body)), to: index)
    }

    private func misc(_ choice: Int, peer index: Int) {
        let amount = Duration.milliseconds((choice >> 3) * 20)
        switch choice & 7 {
        case 0:
            guard let peer = peer(index) else { return }
            if choice & 8 != 0 {
                // Closed with no event first, as NIO does after a failed write: what the socket took since
                // the relay last asked may go uncounted (never more than the peer received).
                peer.closedAbruptly = true
            } else {
                peer.channel.pipeline.fireChannelReadComplete()     // as NIO does on the peer's EOF, then closes
            }
            peer.channel.close(promise: nil)
        case 1:
            // The socket stops taking bytes: NIO holds what is flushed, and past its high water mark the
            // channel turns unwritable (``HeldSocketBuffer``).
            peer(index)?.socketBuffer.hold()
        case 2:
            // The socket drains: what NIO held is written, and the channel is writable again.
            peer(index)?.socketBuffer.release()
        case 3: registry.interrupt(.restart(amount))
        case 4: registry.interrupt(.busy(amount))
        case 5: registry.interrupt(.stall(amount))
        case 6: registry.interrupt(.move)
        default: peer(index)?.channel.pipeline.fireUserInboundEventTriggered(ChannelEvent.inputClosed)
        }
    }
}
