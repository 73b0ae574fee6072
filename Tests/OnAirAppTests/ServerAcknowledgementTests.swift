import Foundation
import OnAirTestSupport
import Testing

/// Issue 23: the server's RTMP Acknowledgements (RTMP spec §5.4.3) cross-check the kernel's TCP figure that
/// the publisher's `bitrate` and ABR read. OnAir announces a 256 KiB window after `connect`; nginx-rtmp then
/// acknowledges each window it read, and the publisher's `stats` carry both counts. Stock nginx-rtmp on
/// loopback, plain and behind an nginx TLS proxy.
@Suite("the server's RTMP Acknowledgements beside TCP_INFO, against nginx-rtmp", .serialized)
struct ServerAcknowledgementTests {
    /// Waits for a `stats` event in which the server acknowledged at least 1 MB, then checks it against TCP.
    static func check(_ publisher: HeadlessRun) async throws {
        let stats = await publisher.waitFor(.seconds(90)) { event in
            event.kind == "stats" && (event.details["serverAcknowledgedBytes"] as? Int ?? 0) >= 1 << 20
        }
        let details = try #require(stats?.details, "no stats with the server's acknowledged bytes: \(publisher.peer.standardError) \(publisher.peer.standardOutput.suffix(2000))")
        let server = details["serverAcknowledgedBytes"] as? Int ?? -1
        let tcp = details["tcpAcknowledgedBytes"] as? Int ?? -1
        print("server acknowledged \(server) bytes, TCP \(tcp): TCP − RTMP = \(tcp - server)")
        // TCP counts the handshake and what the server has not acknowledged yet (under one window); never
        // less than what the server read.
        #expect(tcp >= server && tcp - server <= (256 << 10) + (512 << 10), "server \(server), TCP \(tcp)")
        #expect(!publisher.peer.standardOutput.contains("RTMP Acknowledgement"), "a disagreement warning: \(publisher.peer.standardOutput.suffix(2000))")
        #expect(publisher.peer.stop() == 0, "publisher: \(publisher.peer.standardError)")
        #expect(publisher.events.malformed.isEmpty, "lines outside the schema: \(publisher.events.malformed)")
    }

    @Test("rtmp:// direct: nginx-rtmp acknowledges what it read, within a window of TCP's count")
    func plain() async throws {
        let nginx = try NginxRTMPServer()
        defer { nginx.stop() }
        let directory = try TemporaryDirectory(prefix: "onair-acks")
        let publisher = try HeadlessRun(
            ["publish", nginx.url(stream: "acks"), "--headless", "--video", "test", "--audio", "test", "--size", "640x360",
             "--bitrate", "1500k", "--duration", "120"],
            in: directory)
        defer { _ = publisher.peer.stop(signal: SIGKILL) }
        try await Self.check(publisher)
    }

    @Test("rtmps:// through an nginx TLS proxy: the same, TLS overhead within the slack")
    func overTLS() async throws {
        let nginx = try NginxRTMPServer()
        defer { nginx.stop() }
        let directory = try TemporaryDirectory(prefix: "onair-acks-tls")
        let authority = try TestCertificateAuthority(name: "OnAir Ack CA", in: directory)
        let proxy = try NginxTLSProxy(forwardingTo: nginx.port, certificate: try authority.issueServerCertificate())
        let publisher = try HeadlessRun(
            ["publish", proxy.url(stream: "acks"), "--ca-file", authority.certificateFile.path, "--headless", "--video", "test",
             "--audio", "test", "--size", "640x360", "--bitrate", "1500k", "--duration", "120"],
            in: directory)
        defer { _ = publisher.peer.stop(signal: SIGKILL) }
        try await Self.check(publisher)
    }
}
