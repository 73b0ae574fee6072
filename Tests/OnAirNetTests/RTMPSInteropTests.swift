import Foundation
import NIOCore
import NIOPosix
import OnAirTestSupport
import OnAirCore
@testable import OnAirNet
import OnAirRTMP
import Testing

/// `rtmps://` against a real TLS server: a stock nginx `stream` proxy with a certificate from a CA the
/// test makes with `openssl`, in front of a stock nginx-rtmp; and the refusals an operator must see.
@Suite("rtmps:// through an nginx TLS proxy", .serialized, .timeLimit(.minutes(5)))
struct RTMPSInteropTests {
    /// nginx-rtmp, a TLS proxy in front of it, and the CA that signed the proxy's certificate.
    struct Servers {
        let directory: TemporaryDirectory
        let authority: TestCertificateAuthority
        let nginx: NginxRTMPServer
        let proxy: NginxTLSProxy

        init(dnsNames: [String] = ["localhost"], ipAddresses: [String] = ["127.0.0.1"]) throws {
            directory = try TemporaryDirectory(prefix: "onair-rtmps")
            authority = try TestCertificateAuthority(name: "OnAir Test CA", in: directory)
            nginx = try NginxRTMPServer()
            proxy = try NginxTLSProxy(
                forwardingTo: nginx.port,
                certificate: try authority.issueServerCertificate(dnsNames: dnsNames, ipAddresses: ipAddresses)
            )
        }

        /// The client configuration trusting only this test's CA.
        func trustingTestCA() throws -> RTMPClient.Configuration {
            var configuration = RTMPClient.Configuration()
            configuration.tls = try RTMPTLSConfiguration(caFile: authority.certificateFile.path)
            return configuration
        }

        /// True when nginx-rtmp saw an RTMP `connect` (it logs each at `info`).
        var rtmpServerSawConnect: Bool { nginx.errorLog.contains("connect: app=") }
    }

    @Test("OnAir's player plays over rtmps://localhost (SNI + name check) what ffmpeg publishes to the plain port")
    func playOverTLS() async throws {
        let servers = try Servers()
        let player = RTMPPlayer(
            url: try StreamURL(servers.proxy.url(host: "localhost", stream: "tls1")),
            configuration: try servers.trustingTestCA()
        )
        try await player.start()
        let events = try await TestEnvironment.playWhileFFmpegPublishes(player, to: servers.nginx.url(stream: "tls1"), in: servers.directory.url)

        let video = try #require(events.lazy.compactMap { if case .videoTrack(let track) = $0 { track } else { nil } }.first)
        #expect(video.width == 320)
        #expect(video.height == 240)
        let audio = events.lazy.compactMap { if case .audioTrack(let track) = $0 { track } else { nil } }.first
        #expect(audio?.sampleRate == 44_100)
        let frames = events.filter { if case .packet(let packet) = $0 { packet.kind == .video } else { false } }
        #expect(frames.count >= 60, "only \(frames.count) video frames over TLS")
        // The control for the other tests' "never saw a connect": through the proxy, nginx-rtmp logs it.
        #expect(servers.rtmpServerSawConnect)
    }

    @Test("a certificate from another CA is refused as not trusted, naming the CA file; nginx-rtmp never sees a connect")
    func wrongCertificateAuthority() async throws {
        let servers = try Servers()
        let other = try TestCertificateAuthority(name: "Some Other CA", in: servers.directory)
        var configuration = RTMPClient.Configuration()
        configuration.tls = try RTMPTLSConfiguration(caFile: other.certificateFile.path)
        let url = try StreamURL(servers.proxy.url(stream: "secretkey?key=abc123"))
        let publisher = RTMPPublisher(url: url, configuration: configuration)
        do {
            try await publisher.start(video: nil, audio: nil)
            Issue.record("a certificate from another CA was accepted")
        } catch let error as RTMPClient.Error {
            #expect(error == .tlsCertificateNotTrusted(url: url.redacted, trusted: "the CA in \(other.certificateFile.path)"))
            #expect(error.description.contains("TLS certificate not trusted"))
            #expect(error.description.contains("pass --ca-file"))
            #expect(!error.description.contains("abc123"), "the key leaked: \(error)")
        }
        await publisher.stop()
        #expect(!servers.rtmpServerSawConnect, "nginx-rtmp saw a connect: \(servers.nginx.errorLog)")
    }

    @Test("by default only the system's roots are trusted: a private CA's certificate is refused")
    func systemRootsByDefault() async throws {
        let servers = try Servers()
        let url = try StreamURL(servers.proxy.url(stream: "x"))
        let player = RTMPPlayer(url: url)
        await #expect(throws: RTMPClient.Error.tlsCertificateNotTrusted(url: url.redacted, trusted: "the system's trusted roots")) {
            try await player.start()
        }
        await player.stop()
        #expect(!servers.rtmpServerSawConnect)
    }

    @Test("a trusted certificate issued for another name is refused as a name mismatch")
    func nameMismatch() async throws {
        let servers = try Servers(dnsNames: ["ingest.example"], ipAddresses: [])
        let url = try StreamURL(servers.proxy.url(host: "127.0.0.1", stream: "x"))
        let publisher = RTMPPublisher(url: url, configuration: try servers.trustingTestCA())
        await #expect(throws: RTMPClient.Error.tlsCertificateNameMismatch(url: url.redacted, host: "127.0.0.1")) {
            try await publisher.start(video: nil, audio: nil)
        }
        await publisher.stop()
        #expect(!servers.rtmpServerSawConnect)
    }

    @Test("rtmps:// to a plain RTMP port fails the TLS handshake and never falls back to plain RTMP")
    func plainServerIsNotTLS() async throws {
        let nginx = try NginxRTMPServer()
        defer { nginx.stop() }
        var configuration = RTMPClient.Configuration()
        configuration.handshakeTimeout = .seconds(1)
        let url = try StreamURL("rtmps://127.0.0.1:\(nginx.port)/live/x")
        let publisher = RTMPPublisher(url: url, configuration: configuration)
        do {
            try await publisher.start(video: nil, audio: nil)
            Issue.record("rtmps:// to a plain RTMP port succeeded")
        } catch let error as RTMPClient.Error {
            guard case .tlsHandshakeFailed(let named, _) = error else {
                Issue.record("expected tlsHandshakeFailed, got \(error)")
                return
            }
            #expect(named == url.redacted)
            #expect(error.description.contains("rtmp://"))
        }
        await publisher.stop()
        #expect(!nginx.errorLog.contains("connect: app="), "nginx-rtmp saw a plain connect: \(nginx.errorLog)")
    }
}

/// A plain server that hangs up on the ClientHello, as `onair serve` does on a C0 it does not know.
@Suite("rtmps:// to a server that hangs up")
struct RTMPSHangUpTests {
    @Test("the handshake failure says the server closed the connection, not BoringSSL's 'sslError([Error:  EOF …])'")
    func hangUpIsNamed() async throws {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let listener = try await ServerBootstrap(group: group)
            .childChannelInitializer { channel in channel.pipeline.addHandler(HangUpOnFirstRead()) }
            .bind(host: "127.0.0.1", port: 0).get()
        let port = try #require(listener.localAddress?.port)
        let url = try StreamURL("rtmps://127.0.0.1:\(port)/live/x")
        let publisher = RTMPPublisher(url: url, configuration: RTMPClient.Configuration())
        do {
            try await publisher.start(video: nil, audio: nil)
            Issue.record("rtmps:// to a server that hangs up succeeded")
        } catch let error as RTMPClient.Error {
            guard case .tlsHandshakeFailed(_, let reason) = error else {
                Issue.record("expected tlsHandshakeFailed, got \(error)")
                return
            }
            #expect(reason == "the server closed the connection during it")
            #expect(!error.description.contains("sslError"), "\(error.description)")
        }
        await publisher.stop()
        try await listener.close()
        try await group.shutdownGracefully()
    }
}

/// Reads the first bytes (the ClientHello, to the server a C0 of version 0x16) and closes: a FIN, not a reset.
private final class HangUpOnFirstRead: ChannelInboundHandler, Sendable {
    typealias InboundIn = ByteBuffer
    func channelRead(context: ChannelHandlerContext, data: NIOAny) { context.close(promise: nil) }
}

/// `--ca-file` problems are found when the configuration is made, before anything connects.
@Suite("rtmps:// CA files")
struct RTMPTLSConfigurationTests {
    @Test("a missing CA file names the path")
    func missing() throws {
        #expect(throws: RTMPTLSConfiguration.Error.fileMissing(path: "/nonexistent/ca.pem")) {
            try RTMPTLSConfiguration(caFile: "/nonexistent/ca.pem")
        }
    }

    @Test("a directory is not a CA file")
    func directory() throws {
        let directory = try TemporaryDirectory()
        #expect(throws: RTMPTLSConfiguration.Error.fileUnreadable(path: directory.url.path, reason: "it is a directory")) {
            try RTMPTLSConfiguration(caFile: directory.url.path)
        }
    }

    @Test("a readable empty file (/dev/null) holds no certificate; it is not \"permission denied\"")
    func empty() throws {
        #expect(throws: RTMPTLSConfiguration.Error.noCertificate(path: "/dev/null")) { try RTMPTLSConfiguration(caFile: "/dev/null") }
        #expect(RTMPTLSConfiguration.Error.noCertificate(path: "/dev/null").description.contains("holds no certificate"))
    }

    @Test("a file without PEM certificates is refused, and so is a malformed certificate")
    func notPEM() throws {
        let directory = try TemporaryDirectory()
        let text = directory.file("notes.txt")
        try "just some text\n".write(to: text, atomically: true, encoding: .utf8)
        #expect(throws: RTMPTLSConfiguration.Error.notPEM(path: text.path)) { try RTMPTLSConfiguration(caFile: text.path) }
        let broken = directory.file("broken.pem")
        try "-----BEGIN CERTIFICATE-----\nbm90IGEgY2VydGlmaWNhdGU=\n-----END CERTIFICATE-----\n"
            .write(to: broken, atomically: true, encoding: .utf8)
        #expect(throws: RTMPTLSConfiguration.Error.malformedPEM(path: broken.path)) { try RTMPTLSConfiguration(caFile: broken.path) }
    }

    @Test("IP literals get no SNI (their address is matched instead); host names do", arguments: [
        ("127.0.0.1", true), ("::1", true), ("2001:db8::5", true), ("10.0.0.255", true),
        ("localhost", false), ("live.example.com", false), ("1.2.3.4.example", false), ("999.1.1.1", false), ("1.2.3", false),
    ])
    func ipLiterals(host: String, isLiteral: Bool) {
        #expect(RTMPTLSConfiguration.isIPLiteral(host) == isLiteral)
    }

    @Test("a CA made by openssl loads, and says what it trusts")
    func loads() throws {
        let directory = try TemporaryDirectory()
        let authority = try TestCertificateAuthority(name: "Loads CA", in: directory)
        let configuration = try RTMPTLSConfiguration(caFile: authority.certificateFile.path)
        #expect(configuration.hasCAFile)
        #expect(configuration.trustDescription == "the CA in \(authority.certificateFile.path)")
        #expect(!RTMPTLSConfiguration().hasCAFile)
    }
}
