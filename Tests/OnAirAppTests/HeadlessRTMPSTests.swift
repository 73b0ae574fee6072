import Foundation
import OnAirTestSupport
import Testing

/// The real `onair` binary publishing over `rtmps://` through a stock nginx TLS proxy (certificate from a
/// CA the test makes with `openssl`) to a stock nginx-rtmp, and refusing what it cannot verify.
@Suite("onair over rtmps://", .serialized)
struct HeadlessRTMPSTests {
    /// nginx-rtmp with a TLS proxy in front, and the CA that signed the proxy's certificate.
    struct Servers {
        let directory: TemporaryDirectory
        let authority: TestCertificateAuthority
        let nginx: NginxRTMPServer
        let proxy: NginxTLSProxy

        init() throws {
            directory = try TemporaryDirectory(prefix: "onair-rtmps-app")
            authority = try TestCertificateAuthority(name: "OnAir Test CA", in: directory)
            nginx = try NginxRTMPServer()
            proxy = try NginxTLSProxy(forwardingTo: nginx.port, certificate: try authority.issueServerCertificate())
        }
    }

    @Test("onair publish rtmps:// --ca-file CA: ffprobe reads h264 + aac back from nginx-rtmp's plain port; onair subscribe rtmps://localhost decodes it")
    func publishOverTLS() async throws {
        let servers = try Servers()
        let publisher = try HeadlessRun([
            "publish", servers.proxy.url(stream: "tls"), "--ca-file", servers.authority.certificateFile.path,
            "--headless", "--video", "test", "--audio", "test", "--size", "320x240", "--fps", "25", "--duration", "120",
        ], in: servers.directory)
        let live = await publisher.waitFor { $0.kind == "state" && $0.details["status"] as? String == "PUBLISHING" }
        #expect(live != nil, "never PUBLISHING: \(publisher.peer.standardOutput) \(publisher.peer.standardError)")
        let started = publisher.events.events.first { $0.kind == "started" }
        #expect(started?.details["url"] as? String == servers.proxy.url(stream: "tls"))
        let subscriber = try HeadlessRun([
            "subscribe", servers.proxy.url(host: "localhost", stream: "tls"), "--ca-file", servers.authority.certificateFile.path,
            "--headless", "--duration", "120",
        ], in: servers.directory)
        // Both runs last until the test has what it needs (were --duration 10 and 5: windows ffprobe and the
        // subscriber's 25 frames had to fit in on a loaded machine; issue 24).

        let probe = try await PeerProcess.run(
            "ffprobe", ["-v", "error", "-show_entries", "stream=codec_name,width,height", "-of", "json", servers.nginx.url(stream: "tls")],
            in: servers.directory.url, timeout: .seconds(60)
        )
        #expect(probe.status == 0, "ffprobe failed: \(probe.error)")
        let streams = try #require(
            (try JSONSerialization.jsonObject(with: Data(probe.output.utf8)) as? [String: Any])?["streams"] as? [[String: Any]]
        )
        let video = streams.first { $0["codec_name"] as? String == "h264" }
        #expect(video?["width"] as? Int == 320)
        #expect(video?["height"] as? Int == 240)
        #expect(streams.contains { $0["codec_name"] as? String == "aac" })

        _ = await subscriber.waitFor { $0.kind == "stats" && $0.details["framesDecoded"] as? Int ?? 0 >= 25 }
        #expect(subscriber.peer.stop() == 0, "subscriber exit: \(subscriber.peer.standardError)")
        let decoded = subscriber.events.events.last { $0.kind == "stopped" }?.details["framesDecoded"] as? Int ?? 0
        #expect(decoded >= 25, "the rtmps:// subscriber decoded only \(decoded) frames: \(subscriber.peer.standardOutput)")

        #expect(publisher.peer.stop() == 0, "publisher exit: \(publisher.peer.standardError)")
        #expect(publisher.events.malformed.isEmpty)
    }

    @Test("the wrong CA, or none (system roots): one clear line, status 1, and nginx-rtmp never sees a plain connect", arguments: [
        true, false,
    ])
    func untrustedCertificateIsRefused(withOtherCA: Bool) async throws {
        let servers = try Servers()
        let other = try TestCertificateAuthority(name: "Some Other CA", in: servers.directory)
        let url = servers.proxy.url(stream: "refused")
        let caFile = withOtherCA ? ["--ca-file", other.certificateFile.path] : []
        let result = try OnAirBinary.run(
            ["publish", url, "--headless", "--video", "test", "--audio", "test", "--size", "320x240", "--duration", "20"] + caFile
        )
        #expect(result.status == 1)
        let lines = result.standardError.split(separator: "\n")
        #expect(lines.count == 1, "expected one line: \(result.standardError)")
        #expect(result.standardError.contains("\(url): TLS certificate not trusted"), "\(result.standardError)")
        #expect(result.standardError.contains("pass --ca-file with the CA that signed the server's certificate"))
        #expect(result.standardError.contains(withOtherCA ? other.certificateFile.path : "the system's trusted roots"))
        #expect(!servers.nginx.errorLog.contains("connect: app="), "nginx-rtmp saw a connect: \(servers.nginx.errorLog)")
        #expect(servers.proxy.errorLog.contains("alert unknown ca"), "the proxy saw no refused certificate: \(servers.proxy.errorLog)")
    }

    @Test("publish --check runs over rtmps:// with --ca-file: nginx-rtmp behind TLS still drops send() notices (exit 3)")
    func relayCheckOverTLS() async throws {
        let servers = try Servers()
        let result = try OnAirBinary.run(
            ["publish", servers.proxy.url(stream: "check"), "--check", "--headless", "--ca-file", servers.authority.certificateFile.path]
        )
        #expect(result.status == 3, "\(result.standardOutput) \(result.standardError)")
        #expect(result.standardOutput.contains("\"verdict\":\"dropped\""), "\(result.standardOutput)")
    }

    @Test("a missing or non-PEM --ca-file is a usage error naming the file, before anything starts")
    func badCAFile() async throws {
        let directory = try TemporaryDirectory()
        let text = directory.file("notes.txt")
        try "not a certificate\n".write(to: text, atomically: true, encoding: .utf8)
        for (file, mention) in [("/nonexistent/ca.pem", "no such file"), (text.path, "not a PEM file")] {
            let result = try OnAirBinary.run(
                ["publish", "rtmps://127.0.0.1:1/live/x", "--ca-file", file, "--headless", "--video", "test", "--duration", "5"]
            )
            #expect(result.status == 2)
            #expect(result.standardError.split(separator: "\n").count == 1, "\(result.standardError)")
            #expect(result.standardError.contains("--ca-file \(file): \(mention)"), "\(result.standardError)")
        }
    }

    @Test("--ca-file with a plain rtmp:// URL is harmless: not read, a notice says so")
    func caFileWithPlainRTMP() async throws {
        let port = try FreePort.loopback()
        let result = try OnAirBinary.run(
            ["subscribe", "rtmp://127.0.0.1:\(port)/live/x", "--ca-file", "/nonexistent/ca.pem", "--headless", "--duration", "5"]
        )
        #expect(result.status == 1, "\(result.standardError)")
        #expect(result.standardError.contains("refused"), "\(result.standardError)")
        #expect(result.standardOutput.contains("--ca-file /nonexistent/ca.pem is not used"), "\(result.standardOutput)")
    }
}
