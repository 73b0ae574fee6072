import OnAirCore
import Testing

/// Issue 29 item 7: a broken IPv6 literal is a usage error, not a host to resolve; an IPv6 host is
/// always written in brackets.
@Suite("Stream URL hosts")
struct StreamURLHostTests {
    @Test("an unclosed bracket or an unbracketed IPv6 literal is refused with the bracket hint",
          arguments: ["rtmp://[::1:1935/live/x", "rtmp://::1/live/x", "rtmp://::1:1935/live/x", "rtmp://host]:1935/live/x"])
    func refused(text: String) {
        #expect(throws: StreamURL.ParseError.invalidHost(text)) { try StreamURL(text) }
        #expect(StreamURL.ParseError.invalidHost(text).description.contains("rtmp://[::1]:1935"))
    }

    @Test("a bracketed IPv6 literal parses and is written back in brackets")
    func bracketed() throws {
        let url = try StreamURL("rtmp://[::1]:1936/live/x")
        #expect(url.host == "::1" && url.port == 1936)
        #expect(url.tcURL == "rtmp://[::1]:1936/live")
        #expect(StreamURL.bracketed("::1") == "[::1]" && StreamURL.bracketed("example.com") == "example.com")
    }
}
