import OnAirCore
import Testing

@Suite("Redaction: one rule for keys in URLs, names, log lines and events")
struct RedactionTests {
    @Test("the app form rtmp://h/live?key=K/stream: the key travels in connect and is never shown")
    func appForm() throws {
        let url = try StreamURL("rtmp://example.com/live?key=SECRET42/stream1")
        #expect(url.app == "live?key=SECRET42")
        #expect(url.streamName == "stream1")
        #expect(url.tcURL == "rtmp://example.com:1935/live?key=SECRET42")
        #expect(url.redacted == "rtmp://example.com:1935/live?key=***/stream1")
        #expect(!url.description.contains("SECRET42"))
    }

    @Test("an app-form URL that does not parse never prints its key")
    func appFormError() {
        do {
            _ = try StreamURL("rtmp://example.com/live?key=SECRET42/")
            Issue.record("parsed")
        } catch {
            #expect(!error.description.contains("SECRET42"), "\(error)")
        }
    }

    @Test("Twitch-style live_… names, long random names and query values are keys")
    func keys() {
        #expect(Redaction.streamName("live_123456789_AbCd") == "***")
        #expect(Redaction.streamName("live_1234") == "***")
        #expect(Redaction.streamName("stream1") == "stream1")
        #expect(Redaction.streamName("live") == "live")
        #expect(Redaction.streamName("livestream") == "livestream")
        #expect(Redaction.streamName("x?key=abc&t=1") == "x?key=***&t=***")
    }

    @Test("a log line quoting the name hides it the same way")
    func text() {
        let name = "live_123456789_AbCd"
        #expect(Redaction.text("→ publish \(name) type live on a new connection", hiding: name) == "→ publish *** type live on a new connection")
        #expect(Redaction.text("send publisherBackground(streamName=\(name))", hiding: name) == "send publisherBackground(streamName=***)")
        #expect(Redaction.text("→ play stream1 on a new connection", hiding: "stream1") == "→ play stream1 on a new connection")
    }

    @Test("the publisher's log and state never carry a key-like stream name")
    func publisherSession() {
        let name = "live_123456789_AbCdEfGh"
        var session = PublisherSession(configuration: PublisherConfiguration(
            streamName: name, redactedURL: "rtmp://h:1935/app/***", policy: .tapRepublish, suspendTimeout: .seconds(10),
            reconnect: ReconnectPolicy(jitterUnit: 0)))
        _ = session.handle(.control(.start(nil)), at: SessionTime(milliseconds: 0))
        let lines = session.state.log.entries.map(\.text)
        #expect(lines.contains { $0.contains("publish ***") }, "\(lines)")
        #expect(!lines.contains { $0.contains(name) }, "\(lines)")
    }

    @Test("a stream key is the stream name for rtmp://host/app, and ?key= otherwise")
    func addingKey() {
        #expect(StreamURL.adding(key: "K1", to: "rtmp://h/app") == "rtmp://h/app/K1")
        #expect(StreamURL.adding(key: "K1", to: "rtmp://h/app/") == "rtmp://h/app/K1")
        #expect(StreamURL.adding(key: "K1", to: "rtmp://h/live/s") == "rtmp://h/live/s?key=K1")
        #expect(StreamURL.adding(key: "K1", to: "rtmp://h/live/s?x=1") == "rtmp://h/live/s?x=1&key=K1")
    }
}
