import Foundation
import OnAirTestSupport
import Testing

/// `onair publish URL --check`, the real binary against real servers (docs/design.md §3 self-test).
@Suite("relay self-test (publish --check)", .serialized)
struct RelayCheckTests {
    @Test("stock nginx-rtmp drops send() notices: exit 3 and one DROPS line")
    func nginxDrops() throws {
        let nginx = try NginxRTMPServer()
        defer { nginx.stop() }
        let url = nginx.url(stream: "checked")
        let result = try OnAirBinary.run(["publish", url, "--check"])
        #expect(result.status == 3, "stdout \(result.standardOutput) stderr \(result.standardError)")
        let lines = result.standardOutput.split(separator: "\n")
        #expect(lines.count == 1, "\(result.standardOutput)")
        #expect(lines.first?.hasPrefix("relay check: \(url) DROPS send() notices") == true, "\(result.standardOutput)")
        #expect(result.standardOutput.contains("stock nginx-rtmp"))
    }

    @Test("stock nginx-rtmp with --headless: one check event, verdict dropped, what is degraded")
    func nginxDropsHeadless() throws {
        let nginx = try NginxRTMPServer()
        defer { nginx.stop() }
        let result = try OnAirBinary.run(["publish", nginx.url(stream: "checkedjson"), "--check", "--headless"])
        #expect(result.status == 3, "stderr \(result.standardError)")
        let event = try Self.onlyEvent(result.standardOutput)
        #expect(event["side"] as? String == "app" && event["kind"] as? String == "check")
        let details = try #require(event["details"] as? [String: Any])
        #expect(details["verdict"] as? String == "dropped")
        #expect((details["nonce"] as? String)?.isEmpty == false)
        #expect(details["latencyMs"] == nil)
        #expect((details["degraded"] as? [String])?.contains("tap-republish flow") == true)
    }

    @Test("onair serve relays send() notices: exit 0 and one relays line; --headless gives latencyMs")
    func embeddedRelayRelays() async throws {
        let directory = try TemporaryDirectory(prefix: "onair-check")
        let serve = try PeerProcess(OnAirBinary.url.path, ["serve", "--listen", "127.0.0.1:0", "--headless"], in: directory.url)
        defer { serve.stop(signal: SIGKILL) }
        let port = try await serve.onairServeListeningPort()
        let url = "rtmp://127.0.0.1:\(port)/live/checked"

        let result = try OnAirBinary.run(["publish", url, "--check"])
        #expect(result.status == 0, "stdout \(result.standardOutput) stderr \(result.standardError)")
        let lines = result.standardOutput.split(separator: "\n")
        #expect(lines.count == 1, "\(result.standardOutput)")
        let line = String(lines.first ?? "")
        #expect(line.hasPrefix("relay check: \(url) relays send() notices (nonce seen "), "\(line)")
        #expect(line.hasSuffix(" ms after sending)"), "\(line)")

        let headless = try OnAirBinary.run(["publish", url, "--check", "--headless"])
        #expect(headless.status == 0, "stderr \(headless.standardError)")
        let event = try Self.onlyEvent(headless.standardOutput)
        let details = try #require(event["details"] as? [String: Any])
        #expect(details["verdict"] as? String == "relayed")
        #expect((details["latencyMs"] as? Int).map { $0 >= 0 && $0 < 10_000 } == true, "\(details)")
        #expect((details["degraded"] as? [Any])?.isEmpty == true)
    }

    @Test("nothing listening: exit 1 and one line saying why")
    func connectionRefused() throws {
        let port = try FreePort.loopback()
        let result = try OnAirBinary.run(["publish", "rtmp://127.0.0.1:\(port)/live/x", "--check"])
        #expect(result.status == 1)
        #expect(result.standardOutput.isEmpty, "\(result.standardOutput)")
        let lines = result.standardError.split(separator: "\n")
        #expect(lines.count == 1, "\(result.standardError)")
        #expect(lines.first?.contains("onair publish --check") == true && lines.first?.contains("\(port)") == true, "\(result.standardError)")
    }

    @Test("a server that accepted the player and then went away: the reason says so, not \"is the RTMP server running\"")
    func serverGoneAfterPlayer() throws {
        let directory = try TemporaryDirectory()
        let port = try FreePort.loopback()
        let url = "rtmp://127.0.0.1:\(port)/live/gone"
        // `ffmpeg -listen 1 -i` takes one connection and waits for a publisher; the check's player comes
        // first, so ffmpeg fails on its `play`, exits and takes its listening socket with it.
        let ffmpeg = try PeerProcess("ffmpeg", ["-nostdin", "-v", "error", "-listen", "1", "-i", url, "-c", "copy", "-y", directory.file("x.flv").path], in: directory.url)
        defer { ffmpeg.stop() }
        // Not probed with a connection: that would be the one ffmpeg takes. The kernel's socket table says when
        // it listens (was a 1.5 s sleep, which ffmpeg's start-up on a loaded machine could outlast; issue 24).
        try FreePort.waitUntilListening(port, what: "ffmpeg -listen 1")
        let result = try OnAirBinary.run(["publish", url, "--check"])
        #expect(result.status == 1)
        let lines = result.standardError.split(separator: "\n")
        #expect(lines.count == 1, "\(result.standardError)")
        #expect(lines.first?.contains("accepted the player") == true, "\(result.standardError)")
        #expect(lines.first?.contains("is the RTMP server running") == false, "\(result.standardError)")
    }

    @Test("a malformed URL is a usage error")
    func badURL() throws {
        let result = try OnAirBinary.run(["publish", "http://example.com/x", "--check"])
        #expect(result.status == 2, "\(result.standardError)")
        #expect(result.standardError.split(separator: "\n").count == 1, "\(result.standardError)")
    }

    private static func onlyEvent(_ output: String) throws -> [String: Any] {
        let lines = output.split(separator: "\n")
        #expect(lines.count == 1, "\(output)")
        return try #require(try JSONSerialization.jsonObject(with: Data((lines.first ?? "").utf8)) as? [String: Any])
    }
}
