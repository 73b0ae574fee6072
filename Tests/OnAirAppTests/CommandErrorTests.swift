import Foundation
import OnAirTestSupport
import Testing

/// Bad input gets a one-line message that says what happened and what to do, and a non-zero status.
@Suite("command-line errors")
struct CommandErrorTests {
    @Test("a wrong URL is a usage error naming the expected form", arguments: [
        ["publish", "http://example.com/live/x", "--headless"],
        ["publish", "rtmp://127.0.0.1:1935/", "--headless"],
        ["subscribe", "rtmp://", "--headless"],
    ])
    func wrongURL(arguments: [String]) throws {
        let result = try OnAirBinary.run(arguments)
        #expect(result.status == 2)
        let lines = result.standardError.split(separator: "\n")
        #expect(lines.count == 1, "expected one line: \(result.standardError)")
        #expect(result.standardError.contains("expected rtmp[s]://host[:port]/app/stream"))
    }

    @Test("a refused connection ends the publisher with one line and status 1")
    func refusedConnection() throws {
        let port = try FreePort.loopback()
        let result = try OnAirBinary.run(
            ["publish", "rtmp://127.0.0.1:\(port)/live/x", "--headless", "--size", "320x180", "--duration", "20"]
        )
        #expect(result.status == 1)
        #expect(result.standardError.split(separator: "\n").count == 1, "\(result.standardError)")
        #expect(result.standardError.contains("refused"), "\(result.standardError)")
    }

    @Test("a refused connection ends the subscriber with one line and status 1")
    func refusedPlay() throws {
        let port = try FreePort.loopback()
        let result = try OnAirBinary.run(["subscribe", "rtmp://127.0.0.1:\(port)/live/x", "--headless", "--duration", "20"])
        #expect(result.status == 1)
        #expect(result.standardError.contains("refused"), "\(result.standardError)")
    }

    @Test("bad engine values stop with one line: status 2 for a bad value, 1 for a file that cannot be read", arguments: [
        (["--size", "641x360"], "even", 2),
        (["--size", "big"], "WIDTHxHEIGHT", 2),
        (["--bitrate", "fast"], "2500k", 2),
        (["--audio-merge-ms", "5000"], "up to 1000", 2),
        (["--video", "/nonexistent/clip.y4m"], "clip.y4m", 1),
    ])
    func badEngineValues(extra: [String], mention: String, status: Int32) throws {
        let result = try OnAirBinary.run(["publish", "rtmp://127.0.0.1:1/live/x", "--headless", "--duration", "1"] + extra)
        #expect(result.status == status, "\(result.standardError)")
        #expect(result.standardError.contains(mention), "\(result.standardError)")
        #expect(result.standardError.split(separator: "\n").count == 1, "\(result.standardError)")
    }
}
