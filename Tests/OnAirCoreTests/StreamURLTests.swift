import OnAirCore
import Testing

@Suite("StreamURL")
struct StreamURLTests {
    @Test("parses host, default port, app and stream name")
    func basic() throws {
        let url = try StreamURL("rtmp://example.com/live/stream1")
        #expect(url.host == "example.com")
        #expect(url.port == 1935)
        #expect(url.app == "live")
        #expect(url.streamName == "stream1")
        #expect(!url.usesTLS)
        #expect(url.tcURL == "rtmp://example.com:1935/live")
    }

    @Test("rtmps defaults to port 443 and reports TLS")
    func rtmps() throws {
        let url = try StreamURL("rtmps://live.example.com/app/key")
        #expect(url.port == 443)
        #expect(url.usesTLS)
    }

    @Test("explicit port, instance path, query and credentials")
    func full() throws {
        let url = try StreamURL("rtmp://bob:secret@127.0.0.1:1936/live/inst/stream?key=abc123")
        #expect(url.user == "bob")
        #expect(url.password == "secret")
        #expect(url.port == 1936)
        #expect(url.app == "live/inst")
        #expect(url.streamName == "stream?key=abc123")
        #expect(url.tcURL == "rtmp://127.0.0.1:1936/live/inst")
    }

    @Test("IPv6 literal host")
    func ipv6() throws {
        let url = try StreamURL("rtmp://[::1]:1940/live/s")
        #expect(url.host == "::1")
        #expect(url.port == 1940)
        #expect(url.tcURL == "rtmp://[::1]:1940/live")
    }

    @Test("redacted hides passwords, query values and key-like stream names")
    func redaction() throws {
        let url = try StreamURL("rtmp://bob:secret@host/live/stream?key=abc123&token=zz")
        #expect(url.redacted == "rtmp://***@host:1935/live/stream?key=***&token=***")
        #expect(!url.description.contains("secret"))
        let keyed = try StreamURL("rtmp://a.rtmp.youtube.com/live2/x7k2-9fqa-u3mz-0b1c-4d5e")
        #expect(keyed.redacted == "rtmp://a.rtmp.youtube.com:1935/live2/***")
        let plain = try StreamURL("rtmp://host/live/stream1")
        #expect(plain.redacted == "rtmp://host:1935/live/stream1")
    }

    @Test("wrong URLs give errors that say what was expected", arguments: [
        ("http://host/live/s", StreamURL.ParseError.unsupportedScheme("http://host/live/s")),
        ("rtmp:///live/s", .missingHost("rtmp:///live/s")),
        ("rtmp://host:99999/live/s", .invalidPort("rtmp://host:99999/live/s")),
        ("rtmp://host", .missingApplication("rtmp://host")),
        ("rtmp://host/live", .missingStreamName("rtmp://host/live")),
    ])
    func errors(input: String, expected: StreamURL.ParseError) {
        #expect(throws: expected) { try StreamURL(input) }
        #expect(expected.description.hasPrefix("expected rtmp[s]://host[:port]/app/stream, got "))
    }

    @Test("errors redact credentials of the rejected URL")
    func errorRedaction() {
        do {
            _ = try StreamURL("rtmp://bob:secret@host/live")
            Issue.record("expected an error")
        } catch {
            #expect(!error.description.contains("secret"))
        }
    }
}
