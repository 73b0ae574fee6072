import Foundation
import OnAirTestSupport
import OnAirCore
import OnAirNet
import OnAirRTMP
import Testing

/// Failures read well and carry the right case, against real conditions (no fake servers).
@Suite("RTMP client errors", .serialized, .timeLimit(.minutes(5)))
struct RTMPClientErrorTests {
    @Test("nothing listening: connection refused")
    func refused() async throws {
        let port = try TestEnvironment.freePort()
        let publisher = RTMPPublisher(url: try StreamURL("rtmp://127.0.0.1:\(port)/live/x"))
        await #expect(throws: RTMPClient.Error.connectionRefused(host: "127.0.0.1", port: port)) {
            try await publisher.start(video: nil, audio: nil)
        }
    }

    @Test("unknown host: name not resolved")
    func unresolved() async throws {
        let player = RTMPPlayer(url: try StreamURL("rtmp://no-such-host.invalid/live/x"))
        await #expect(throws: RTMPClient.Error.nameNotResolved(host: "no-such-host.invalid")) { try await player.start() }
    }

    @Test("sending before start says so")
    func notPublishing() async throws {
        let publisher = RTMPPublisher(url: try StreamURL("rtmp://127.0.0.1/live/x"))
        await #expect(throws: RTMPClient.Error.notPublishing) { try await publisher.send(handler: "x", []) }
    }

    @Test("nginx-rtmp refuses a second publisher of the same name with NetStream.Publish.BadName")
    func badName() async throws {
        let directory = try TestEnvironment.makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let nginx = try NginxRTMPServer()
        defer { nginx.stop() }
        let url = try StreamURL(nginx.url(stream: "taken"))
        let first = RTMPPublisher(url: url)
        try await first.start(video: nil, audio: nil)
        // The name comes from start(streamName:), overriding the URL's, so the collision is on "taken".
        let second = RTMPPublisher(url: try StreamURL(nginx.url(stream: "other")))
        do {
            try await second.start(streamName: "taken", video: nil, audio: nil)
            Issue.record("the second publish was accepted")
        } catch RTMPClient.Error.publishRejected(let status) {
            #expect(status.code == .publishBadName)
            #expect(RTMPClient.Error.publishRejected(status).description.contains("pick another"))
        }
        await first.stop()
        await second.stop()
    }

    @Test("nginx-rtmp rejects connect to an unknown application")
    func unknownApplication() async throws {
        let directory = try TestEnvironment.makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let nginx = try NginxRTMPServer()
        defer { nginx.stop() }
        let publisher = RTMPPublisher(url: try StreamURL("rtmp://127.0.0.1:\(nginx.port)/nosuchapp/x"))
        do {
            try await publisher.start(video: nil, audio: nil)
            Issue.record("connect to an unknown application was accepted")
        } catch let error as RTMPClient.Error {
            guard case .connectRejected = error else {
                Issue.record("expected connectRejected, got \(error)")
                return
            }
            #expect(error.description.contains("connect") && error.description.contains("check the application name"), "\(error)")
        }
    }

    @Test("an HTTP server (nginx) on the port: handshake failed, saying it is not RTMP")
    func httpServer() async throws {
        let directory = try TestEnvironment.makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let port = try TestEnvironment.freePort()
        let config = """
        worker_processes 1;
        pid \(directory.path)/nginx.pid;
        error_log \(directory.path)/error.log;
        events { worker_connections 16; }
        http { access_log off; server { listen 127.0.0.1:\(port); return 200 "not rtmp"; } }
        """
        try config.write(to: directory.appendingPathComponent("http.conf"), atomically: true, encoding: .utf8)
        let nginx = try PeerProcess("nginx", ["-p", directory.path, "-c", directory.appendingPathComponent("http.conf").path,
                                              "-e", directory.appendingPathComponent("error.log").path, "-g", "daemon off;"],
                                    in: directory)
        defer { nginx.stop() }
        #expect(await TestEnvironment.waitUntilListening(port: port))
        let player = RTMPPlayer(url: try StreamURL("rtmp://127.0.0.1:\(port)/live/x"))
        do {
            try await player.start()
            Issue.record("an HTTP server passed the RTMP handshake")
        } catch let error as RTMPClient.Error {
            guard case .handshakeFailed = error else {
                Issue.record("expected handshakeFailed, got \(error)")
                return
            }
            #expect(error.description.contains("RTMP server"))
        }
    }

    @Test("the server going away mid-publish: events end with connectionLost and send throws it")
    func connectionLost() async throws {
        let directory = try TestEnvironment.makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let nginx = try NginxRTMPServer()
        defer { nginx.stop() }
        let publisher = RTMPPublisher(url: try StreamURL(nginx.url(stream: "lost")))
        try await publisher.start(video: nil, audio: nil)
        nginx.stop()
        var last: RTMPPublisher.Event?
        for await event in publisher.events { last = event }
        #expect(last == .closed(.connectionLost))
        await #expect(throws: RTMPClient.Error.connectionLost) {
            try await publisher.send(EncodedPacket(kind: .audio, decodeTimestamp: 0, isKeyframe: true, payload: [1]))
        }
        await publisher.stop()
    }
}
