import Foundation
import Synchronization
import NIOCore
import NIOPosix
@testable import OnAirRelay
import OnAirRTMP
import Testing

/// The relay tolerates what ffmpeg and librtmp tolerate — a first chunk header of format 1 on a fresh chunk
/// stream (pyrtmp sends one) — and says so once per connection, never once per message (GitHub issue 18).
@Suite("Relay peer warnings")
struct RelayPeerWarningTests {
    /// One `connect` command (AMF0, §7.2.1.1) in a single chunk whose header is format 1 on chunk stream 3:
    /// no format-0 header ever came before it, which §5.3.1.2 forbids.
    private static func connectWithFormatOneHeader(transactionID: Double, into buffer: inout ByteBuffer) {
        let payload = AMF0Encoder.encode([
            .string("connect"), .number(transactionID),
            .object([AMF0Value.Property("app", .string("live"))]),
        ])
        buffer.writeInteger(UInt8(0x40 | 3))                          // fmt 1, chunk stream 3
        buffer.writeBytes([0, 0, 0])                                  // timestamp delta
        let length = payload.readableBytes
        buffer.writeBytes([UInt8(length >> 16 & 0xFF), UInt8(length >> 8 & 0xFF), UInt8(length & 0xFF)])
        buffer.writeInteger(RTMPMessageType.commandAMF0.rawValue)
        var body = payload
        buffer.writeBuffer(&body)
    }

    @Test("a format-1 first header is accepted, the connect answered, and one warning event names the break")
    func formatOneFirstHeader() async throws {
        let harness = try await RelayTestHarness()
        let counter = ByteCounter()
        let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(counter)
                }
            }
            .connect(host: "127.0.0.1", port: harness.port).get()
        var hello = channel.allocator.buffer(capacity: 1 + 2 * RTMPHandshake.packetSize + 512)
        hello.writeInteger(UInt8(3))                                   // C0
        hello.writeRepeatingByte(0, count: RTMPHandshake.packetSize)   // C1 (time 0, zero, "random" zeros)
        hello.writeRepeatingByte(0, count: RTMPHandshake.packetSize)   // C2 (the relay does not check the echo)
        Self.connectWithFormatOneHeader(transactionID: 1, into: &hello)
        // A second message on the same chunk stream, format 1 again: now a previous header exists.
        Self.connectWithFormatOneHeader(transactionID: 2, into: &hello)
        try await channel.writeAndFlush(hello).get()

        try await harness.events.wait { events in
            events.contains { if case .peerWarning = $0 { true } else { false } }
        }
        // The relay answered beyond its handshake (S0+S1+S2 is 3073 bytes): the connect was read.
        let deadline = ContinuousClock.now + .seconds(60)     // a safety net (was 10 s; issue 24)
        while counter.received.withLock({ $0 }) <= RTMPHandshake.peerByteCount, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(20))
        }
        #expect(counter.received.withLock { $0 } > RTMPHandshake.peerByteCount, "the connect was never answered")
        let warnings = harness.events.all.compactMap { event -> String? in
            if case .peerWarning(_, let reason) = event { reason } else { nil }
        }
        #expect(warnings.count == 1, "one warning per connection: \(warnings)")
        #expect(warnings.first?.contains("format-1") == true, "\(warnings)")
        try? await channel.close()
        await harness.stop()
    }
}

/// Counts the bytes the relay sends back.
private final class ByteCounter: ChannelInboundHandler, Sendable {
    typealias InboundIn = ByteBuffer
    let received = Mutex(0)
    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let count = unwrapInboundIn(data).readableBytes
        received.withLock { $0 += count }
    }
}
