import OnAirCore
import Testing

/// The publisher and subscriber machines driven together through a relay as docs/design.md §3 describes it
/// (data messages relayed to players, UnpublishNotify / PublishNotify on unpublish / publish), so the
/// testbed's two devices (red5pro-publish-subscribe-telephony-interrupt.md, "Testing") can be replayed
/// without a network.
struct RelayedPair {
    var publisher: PublisherSession
    var subscriber = SubscriberSession(streamName: stream, redactedURL: "")
    /// Whether the relay holds a publisher for the stream.
    var published = false

    init(policy: PublisherPolicyKind) {
        publisher = PublisherSession(configuration: PublisherConfiguration(streamName: stream, redactedURL: "", policy: policy))
    }

    /// Feeds the publisher, then performs its actions as the owner and a relay would, feeding the subscriber.
    mutating func publisher(_ event: PublisherEvent, at ms: Int64) {
        let now = SessionTime(milliseconds: ms)
        for action in publisher.handle(event, at: now) {
            switch action {
            case .send(let handler, let parameter):
                subscriber(.message(handler: handler, parameter: parameter), at: ms)
            case .stop, .dropConnection, .abandonConnection:
                published = false
                subscriber(.status(.unpublishNotify), at: ms)
            case .publish:
                // The relay accepts at once.
                published = true
                _ = publisher.handle(.network(.publishStarted), at: now)
                subscriber(.status(.publishNotify), at: ms)
                // Media follows at once; only media makes the subscriber PLAYING.
                subscriber(.mediaResumed, at: ms)
            default:
                break
            }
        }
    }

    /// Feeds the subscriber, answering its plays as the relay would.
    mutating func subscriber(_ event: SubscriberEvent, at ms: Int64) {
        let now = SessionTime(milliseconds: ms)
        for action in subscriber.handle(event, at: now) {
            if case .play = action {
                // Stock relays answer Play.Start for any name; media comes only from a publisher.
                subscriber(.status(.start), at: ms)
                if published { subscriber(.mediaResumed, at: ms) }
            }
        }
    }
}

@Suite("Publisher and subscriber through a relay")
struct PublisherSubscriberPairTests {
    @Test("decline: the subscriber replays and waits, never PLAYING while the publisher awaits a tap, and plays again after it")
    func declineThenTap() {
        var pair = RelayedPair(policy: .tapRepublish)
        pair.publisher(.control(.start(nil)), at: 0)
        pair.subscriber(.control(.play), at: 10)
        #expect(pair.subscriber.state.connection == .playing)

        pair.publisher(.operator(.incomingCall), at: 1000)
        #expect(pair.subscriber.state.publisherIsInBackground)

        pair.publisher(.operator(.decline), at: 3000)
        #expect(pair.publisher.state.status == .awaitingTap)
        #expect(pair.subscriber.state.publisherIsDisconnected)
        #expect(pair.subscriber.state.connection == .reconnecting(at: SessionTime(milliseconds: 5000)))

        // The replay is accepted (Play.Start, as stock relays say for any name) but no media comes while
        // the publisher awaits its tap: WAITING FOR PUBLISHER, never PLAYING.
        pair.subscriber(.timerFired(.reconnect), at: 5000)
        #expect(pair.subscriber.state.connection == .waitingForPublisher)
        #expect(pair.subscriber.state.publisherIsDisconnected)
        pair.subscriber(.timerFired(.reconnect), at: 7000)
        #expect(pair.subscriber.state.connection == .waitingForPublisher)

        pair.publisher(.operator(.tap), at: 8000)
        #expect(pair.publisher.state.status == .publishing)
        #expect(pair.subscriber.state.connection == .playing)
        #expect(!pair.subscriber.state.publisherIsDisconnected)
        #expect(pair.subscriber.pendingTimers.isEmpty)

        let subscriberToasts = pair.subscriber.state.toasts.toasts.map(\.text)
        #expect(subscriberToasts == ["Publish Background", "Publisher Interrupted"])
    }

    @Test("Home and return: the subscriber sees background and foreground notices and never loses the stream")
    func homeThenReturn() {
        var pair = RelayedPair(policy: .tapRepublish)
        pair.publisher(.control(.start(nil)), at: 0)
        pair.subscriber(.control(.play), at: 10)
        pair.publisher(.operator(.home), at: 1000)
        pair.publisher(.operator(.returnToApp), at: 9000)
        #expect(pair.subscriber.state.connection == .playing)
        #expect(!pair.subscriber.state.publisherIsInBackground)
        #expect(pair.subscriber.state.toasts.toasts.map(\.text) == ["Publish Background", "Publisher Foreground"])
    }

    @Test("background-audio past the timeout: subscribers see the publisher go and come back")
    func suspensionDropAndReturn() {
        var pair = RelayedPair(policy: .backgroundAudio)
        pair.publisher(.control(.start(nil)), at: 0)
        pair.subscriber(.control(.play), at: 10)
        pair.publisher(.operator(.incomingCall), at: 1000)
        pair.publisher(.timerFired(.suspension), at: 11000)
        // No background notice under this policy: the subscriber waits without looping.
        #expect(pair.subscriber.state.connection == .waitingForPublisher)
        pair.publisher(.operator(.decline), at: 15000)
        #expect(pair.publisher.state.status == .publishing)
        #expect(pair.subscriber.state.connection == .playing)
    }
}
