import FuzzDriver
import Glibc
import NIOCore
import NIOEmbedded
import OnAirCore
import OnAirRTMP

/// `RTMPClient`'s namespace: its errors and incoming messages are the shipped files (symlinks); the clients'
/// configuration beside them in `RTMPClient.swift` names the TLS setup (NIOSSL), which the handler never uses.
enum RTMPClient {}

/// libFuzzer's entry point: the client's protocol handler (`RTMPClientChannelHandler`, what every publisher and
/// player of OnAir speaks through) on an `EmbeddedChannel`, against a server the input scripts. Its first byte is
/// the handler's response timeout in 100 ms steps; then each step is one byte, `b % 8` the action, `b / 8` its
/// argument, followed by the bytes it reads:
///
/// | `b % 8` | step | reads |
/// |---|---|---|
/// | 0 | the server's S0+S1+S2, S2 echoing the client's C1 | — |
/// | 1 | raw bytes from the server | length byte, bytes |
/// | 2 | one message from the server, chunked by its encoder | chunk stream, type, stream, time (2), length (2), bytes |
/// | 3 | a server reply from a template (``serverTemplate``) | transaction, number |
/// | 4 | a client call: `connect`, `createStream`, `publish`/`play` awaiting status, a notification, media, a batch, a chunk size | number |
/// | 5 | the clock moves on `(byte + 1) × 20` ms | byte |
/// | 6 | writability off or on | — |
/// | 7 | the server closes or resets, or the client closes or aborts | — |
///
/// Findings: a trap or sanitizer report; the client writing the server anything but C0+C1, C2 and then a chunk
/// stream a server's decoder reads without an error or a tolerated break, with control messages and commands
/// that parse; `onClose` called twice, or a message handed on after it; the handshake's, a call's or a status
/// wait's future left pending once the connection is closed and every timeout has passed.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzClientConnection(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    var script = FuzzScript(data, size)
    guard let timeout = script.byte() else { return 0 }
    let session = ClientFuzzSession(responseTimeout: .milliseconds(Int64(timeout % 100 + 1) * 100))
    session.run(&script)
    session.finish()
    return 0
}

/// SwiftPM points the program's `main` at `<module>_main`.
@_cdecl("FuzzClientConnection_main")
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runLibFuzzer(argc, argv, fuzzClientConnection)
}

/// What the handler told its owner, checked as it happens. The fuzzer runs on one thread, one input at a time.
final class ClientFuzzLog: @unchecked Sendable {
    var closes = 0

    func incoming(_ message: RTMPClient.Incoming) {
        precondition(closes == 0, "a message was handed on after onClose: \(message.message)")
    }

    func closed(_ error: RTMPClient.Error?) {
        closes += 1
        precondition(closes == 1, "onClose called \(closes) times, the last with \(String(describing: error))")
        _ = error?.description
    }
}

/// A counter the futures' callbacks share (on the one thread the embedded loop runs on).
final class ClientFuzzCount: @unchecked Sendable {
    var value = 0
}

final class ClientFuzzSession {
    private let loop = EmbeddedEventLoop()
    private let channel: EmbeddedChannel
    private let handler: RTMPClientChannelHandler
    private let log = ClientFuzzLog()
    private var server = RTMPHandshake(role: .server)
    private var serverEncoder = RTMPChunkEncoder()
    /// What the client wrote: C0+C1, C2, then chunks read by a server's decoder.
    private var written = ByteBuffer()
    private var handshakeBytesLeft = 1 + 2 * 1536
    private var clientHello: [UInt8] = []
    private var serverDecoder = RTMPChunkDecoder(limits: .init(maxMessageLength: 0xFF_FFFF, maxChunkStreams: 65_600))
    /// The futures the handler itself must complete (the handshake, calls and status waits, its close): each
    /// fails when the connection closes, if nothing answered it. (A write's future is NIO's, and an
    /// `EmbeddedChannel` never fails its unflushed writes on close, as a socket channel does: not checked.)
    private var futures: [EventLoopFuture<Void>] = []
    private var transaction = 1.0
    private let handshakeDone = ClientFuzzCount()

    init(responseTimeout: TimeAmount) {
        channel = EmbeddedChannel(loop: loop)
        let log = self.log
        handler = RTMPClientChannelHandler(
            eventLoop: loop, responseTimeout: responseTimeout,
            onIncoming: { log.incoming($0) }, onClose: { log.closed($0) }, onWarning: { _ in })
        do {
            try channel.pipeline.syncOperations.addHandler(handler)
            channel.connect(to: try SocketAddress(ipAddress: "10.0.0.1", port: 1935), promise: nil)
        } catch {
            preconditionFailure("an embedded channel refused the client's handler: \(error)")
        }
        futures.append(handler.handshakeFuture)
        let handshakeDone = self.handshakeDone
        handler.handshakeFuture.whenSuccess { handshakeDone.value = 1 }
        settle()
    }

    func run(_ script: inout FuzzScript) {
        var steps = 0
        while steps < 300, let step = script.byte() {
            steps += 1
            let argument = Int(step >> 3)
            switch step & 7 {
            case 0: serverHello()
            case 1: fromServer(script.take(Int(script.byte() ?? 0)))
            case 2: serverMessage(&script)
            case 3: serverTemplate(argument, &script)
            case 4: clientCall(argument, &script)
            case 5: loop.advanceTime(by: .milliseconds(Int64(script.byte() ?? 0) + 1) * 20)
            case 6:
                channel.isWritable = argument & 1 == 0
                channel.pipeline.fireChannelWritabilityChanged()
            default: ending(argument)
            }
            settle()
        }
    }

    /// The connection ends, every timeout passes: every call has an answer, and onClose came once.
    func finish() {
        channel.close(promise: nil)
        loop.advanceTime(by: .seconds(60))
        settle()
        precondition(log.closes == 1, "onClose called \(log.closes) times once the connection closed")
        let completed = ClientFuzzCount()
        for future in futures { future.whenComplete { _ in completed.value += 1 } }
        let done = completed.value
        precondition(done == futures.count, "\(futures.count - done) of \(futures.count) calls still pending after the connection closed")
        _ = try? channel.finish(acceptAlreadyClosed: true)
        try? loop.syncShutdownGracefully()
    }

    private func settle() {
        loop.run()
        while case .some(var buffer) = try? channel.readOutbound(as: ByteBuffer.self) {
            if handshakeBytesLeft > 0 {
                let count = min(handshakeBytesLeft, buffer.readableBytes)
                let bytes = buffer.readBytes(length: count) ?? []
                if clientHello.count < 1 + 1536 { clientHello += bytes.prefix(1 + 1536 - clientHello.count) }
                handshakeBytesLeft -= count
            }
            written.writeBuffer(&buffer)
        }
        precondition(clientHello.first.map { $0 == 3 } ?? true, "the client's C0 names version \(clientHello[0]), not 3")
        do {
            while let message = try serverDecoder.decode(&written) {
                guard [1, 2, 3, 4, 5, 6, 20].contains(message.typeID) else { continue }
                _ = try RTMPMessage(message)
            }
        } catch {
            preconditionFailure("the client wrote a stream a server cannot read: \(error)")
        }
        if let warning = serverDecoder.takeWarning() { preconditionFailure("the client's chunk stream breaks the spec: \(warning)") }
    }

    private func fromServer(_ bytes: [UInt8]) {
        guard channel.isActive, !bytes.isEmpty else { return }
        _ = try? channel.writeInbound(ByteBuffer(bytes: bytes))
    }

    private func serverHello() {
        guard clientHello.count == 1 + 1536 else { return }
        var hello = ByteBuffer(bytes: clientHello)
        guard case .some(.send(let reply)) = try? server.receive(&hello) else { return }
        fromServer(Array(reply.readableBytesView))
    }

    private func fromServer(_ message: RTMPRawMessage) {
        var buffer = ByteBuffer()
        serverEncoder.encode(message, into: &buffer)
        if message.typeID == 1, let size = message.payload.getInteger(at: message.payload.readerIndex, as: UInt32.self) {
            serverEncoder.setChunkSize(Int(size & 0x7FFF_FFFF))
        }
        fromServer(Array(buffer.readableBytesView))
    }

    private func serverMessage(_ script: inout FuzzScript) {
        let chunkStream = UInt32(script.byte() ?? 0)
        let type = script.byte() ?? 0
        let stream = UInt32(script.byte() ?? 0)
        let time = UInt32(script.number16()) * 16
        let payload = script.take(script.number16() % 4096)
        fromServer(RTMPRawMessage(chunkStreamID: max(2, chunkStream), timestamp: time, typeID: type, messageStreamID: stream,
                                  payload: ByteBuffer(bytes: payload)))
    }

    /// What servers answer: results, errors and statuses (every code the clients act on), pings, window and
    /// bandwidth messages, stream events, metadata, media.
    private func serverTemplate(_ which: Int, _ script: inout FuzzScript) {
        let id = Double(script.byte() ?? 0)
        let number = Double(Int8(bitPattern: script.byte() ?? 0))
        let codes = ["NetConnection.Connect.Success", "NetConnection.Connect.Rejected", "NetStream.Publish.Start",
                     "NetStream.Publish.BadName", "NetStream.Play.Start", "NetStream.Play.StreamNotFound",
                     "NetStream.Play.UnpublishNotify", "NetConnection.Connect.ReconnectRequest"]
        let code = codes[Int(id) % codes.count]
        let status = AMF0Value.object(["level": .string(number < 0 ? "error" : "status"), "code": .string(code),
                                       "description": .string("\u{1B}[2J\(code)"), "tcUrl": .string("rtmp://h:\(Int(number))/live")])
        let messages: [RTMPMessage] = [
            .command(RTMPCommand(name: RTMPCommand.Name.result, transactionID: id, commandObject: .null, arguments: [.number(number)])),
            .command(RTMPCommand(name: RTMPCommand.Name.result, transactionID: id, commandObject: .null, arguments: [status])),
            .command(RTMPCommand(name: RTMPCommand.Name.error, transactionID: id, commandObject: .null, arguments: [status])),
            .command(RTMPCommand(name: RTMPCommand.Name.onStatus, transactionID: 0, commandObject: .null, arguments: [status])),
            .userControl(.pingRequest(timestamp: UInt32(id))),
            .userControl(.streamBegin(streamID: UInt32(id))),
            .windowAcknowledgementSize(UInt32(id) * 1000 + 1),
            .setPeerBandwidth(windowSize: UInt32(id), limit: .dynamic),
            .setChunkSize(UInt32(max(1, number * 100))),
            .acknowledgement(sequenceNumber: UInt32(id)),
            .data(.setDataFrame(metadata: .ecmaArray(["width": .number(number), "framerate": .number(.infinity)]))),
            .video(ByteBuffer(bytes: [0x17, 0x01, 0, 0, 0, 0, 0, 0, 1, 0x65])),
        ]
        let message = messages[which % messages.count]
        fromServer(message.raw(messageStreamID: which >= messages.count ? UInt32(id) : 0))
    }

    /// What the owners (`RTMPClientConnection`) do, only once the handshake is done, as they do.
    private func clientCall(_ which: Int, _ script: inout FuzzScript) {
        let number = Int(script.byte() ?? 0)
        guard handshakeDone.value == 1 else { return }
        transaction += 1
        switch which % 9 {
        case 0: futures.append(handler.call(.connect(app: "live", tcURL: "rtmp://h/live")).map { _ in })
        case 1: futures.append(handler.call(.createStream(transactionID: transaction)).map { _ in })
        case 2: futures.append(handler.sendAwaitingStatus(.publish(name: "a", type: .live), messageStreamID: UInt32(number)).map { _ in })
        case 3: futures.append(handler.sendAwaitingStatus(.play(name: "a"), messageStreamID: UInt32(number)).map { _ in })
        case 4: handler.notify(.fcPublish(transactionID: 0, name: "a"))
        case 5:
            let media = RTMPRawMessage(chunkStreamID: 6, timestamp: UInt32(number * 33), typeID: 9, messageStreamID: 1,
                                       payload: ByteBuffer(repeating: 0x27, count: number * 16))
            handler.send(media, flush: number & 1 == 0)
        case 6:
            let batch = (0..<number % 8).map {
                RTMPRawMessage(chunkStreamID: 4, timestamp: UInt32($0 * 21), typeID: 8, messageStreamID: 1, payload: ByteBuffer(bytes: [0xAF, 1, 2]))
            }
            _ = handler.sendCounting(batch: batch)
        case 7: handler.setOutgoingChunkSize(number * number + 1)
        default: handler.notify(RTMPCommand(name: "receiveVideo", transactionID: 0, arguments: [.boolean(true)]),
                                messageStreamID: UInt32(number), flush: number & 1 == 0)
        }
    }

    private func ending(_ which: Int) {
        switch which % 4 {
        case 0: channel.close(promise: nil)                     // the server closed: the channel goes inactive
        case 1:                                                 // reset: NIO reports the error, then closes
            channel.pipeline.fireErrorCaught(IOError(errnoCode: ECONNRESET, reason: "read"))
            channel.close(promise: nil)
        case 2: futures.append(handler.close())
        default: handler.abort(with: .responseTimedOut(command: "fuzz"))
        }
    }
}
