import NIOCore
import OnAirRTMP
import Testing

@Suite("RTMP handshake")
struct RTMPHandshakeTests {
    /// Runs a client and a server against each other, delivering bytes in pieces of `step` bytes.
    static func run(step: Int) throws -> (client: RTMPHandshake, server: RTMPHandshake, leftover: Int) {
        var client = RTMPHandshake(role: .client, randomBytes: Array(repeating: 7, count: 1528), epoch: 11)
        var server = RTMPHandshake(role: .server, randomBytes: Array(repeating: 9, count: 1528), epoch: 22)
        var toServer = client.start()
        #expect(server.start().readableBytes == 0)
        toServer.writeBytes([0xAA, 0xBB])   // first chunk bytes right behind C2 must survive
        var toClient = ByteBuffer()
        var serverInbox = ByteBuffer(), clientInbox = ByteBuffer()
        var rounds = 0
        while !(client.isComplete && server.isComplete) && rounds < 20_000 {
            rounds += 1
            if var piece = toServer.readSlice(length: min(step, toServer.readableBytes)) { serverInbox.writeBuffer(&piece) }
            if var piece = toClient.readSlice(length: min(step, toClient.readableBytes)) { clientInbox.writeBuffer(&piece) }
            while !server.isComplete, case .send(var out) = try server.receive(&serverInbox) { toClient.writeBuffer(&out) }
            if !server.isComplete { _ = try server.receive(&serverInbox) }
            while !client.isComplete, case .send(var out) = try client.receive(&clientInbox) { toServer.writeBuffer(&out) }
            if !client.isComplete { _ = try client.receive(&clientInbox) }
        }
        return (client, server, serverInbox.readableBytes + toServer.readableBytes)
    }

    @Test("client and server complete whether bytes arrive whole or one at a time", arguments: [1, 7, 1537, 10_000])
    func completes(step: Int) throws {
        let result = try Self.run(step: step)
        #expect(result.client.isComplete)
        #expect(result.server.isComplete)
        #expect(result.leftover == 2)
    }

    @Test("server echoes C1 in S2 and sends version 3")
    func serverEcho() throws {
        var client = RTMPHandshake(role: .client, randomBytes: Array(repeating: 5, count: 1528), epoch: 1234)
        var server = RTMPHandshake(role: .server)
        var c0c1 = client.start()
        let c1 = Array(c0c1.readableBytesView.dropFirst())
        guard case .send(let reply) = try server.receive(&c0c1) else {
            Issue.record("server did not answer C0+C1")
            return
        }
        let bytes = Array(reply.readableBytesView)
        #expect(bytes.count == 1 + 2 * RTMPHandshake.packetSize)
        #expect(bytes[0] == RTMPHandshake.Version.rtmp.rawValue)
        let s2 = bytes[(1 + RTMPHandshake.packetSize)...]
        #expect(Array(s2.prefix(4)) == Array(c1.prefix(4)))
        #expect(Array(s2.dropFirst(8)) == Array(c1.dropFirst(8)))
    }

    @Test("a peer that is not RTMP version 3 fails with a typed error")
    func wrongVersion() {
        var client = RTMPHandshake(role: .client)
        _ = client.start()
        var input = ByteBuffer(bytes: [0x48] + Array(repeating: 0, count: 1536))   // "H" of "HTTP/1.1"
        #expect(throws: RTMPHandshake.Error.unsupportedVersion(0x48)) { try client.receive(&input) }
    }

    @Test("an HTTP answer is named as HTTP, not as RTMP version 72")
    func httpAnswer() {
        let http = RTMPHandshake.Error.unsupportedVersion(UInt8(ascii: "H")).description
        #expect(http.contains("looks like HTTP"), "\(http)")
        #expect(!http.contains("version 72"), "\(http)")
        #expect(RTMPHandshake.Error.unsupportedVersion(6).description.contains("version 6"))
    }

    @Test("partial S0+S1 is need-more-data and consumes nothing")
    func partial() throws {
        var client = RTMPHandshake(role: .client)
        _ = client.start()
        var input = ByteBuffer(bytes: [3] + Array(repeating: 0, count: 100))
        #expect(try client.receive(&input) == .needMoreData)
        #expect(input.readableBytes == 101)
    }
}

@Suite("RTMP handshake random bytes")
struct RTMPHandshakeRandomTests {
    @Test("C1's 1528 random bytes are filled whole (drawn eight at a time) and differ from one handshake to the next")
    func randomFill() {
        var first = RTMPHandshake(role: .client)
        var second = RTMPHandshake(role: .client)
        let one = first.start(), two = second.start()
        #expect(one.readableBytes == 1 + 1536 && two.readableBytes == 1 + 1536)
        let randomOne = one.getBytes(at: one.readerIndex + 9, length: 1528) ?? []
        let randomTwo = two.getBytes(at: two.readerIndex + 9, length: 1528) ?? []
        #expect(randomOne != randomTwo)
        // Every eight-byte draw lands, the last one cut to fit: no tail of zeros left unfilled.
        #expect(randomOne.suffix(64).contains { $0 != 0 } && randomOne.prefix(64).contains { $0 != 0 })
        #expect(Set(randomOne).count > 200, "1528 random bytes take most of the 256 values")
    }
}
