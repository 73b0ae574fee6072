import OnAirCore
import Testing

/// red5pro-publish-subscribe-telephony-interrupt.md, PublishTelephonyInterruptTest.swift.
@Suite("tap-republish policy")
struct TapRepublishPolicyTests {
    static let scenarios: [PublisherScenario] = [
        PublisherScenario(
            "decline: video pauses, subscribers are told, the stream stops, Tap to Re-Publish!, a tap publishes live",
            policy: .tapRepublish,
            steps: startedBroadcast(.live) + [
                PublisherStep(1000, key(.incomingCall), [.pauseVideo(true), send("publisherBackground")], .pausedVideo),
                PublisherStep(4000, key(.decline), [send("publisherInterrupt"), .stop, .toast("Tap to Re-Publish!"), .armTap], .awaitingTap),
                PublisherStep(6000, key(.tap), [.disarmTap, .pauseVideo(false), publish(.live)], .connecting),
                PublisherStep(6100, publishStarted, [], .publishing),
            ]
        ),
        PublisherScenario(
            "Siri dismissed behaves like a declined call",
            policy: .tapRepublish,
            steps: startedBroadcast(.live) + [
                PublisherStep(1000, key(.siri), [.pauseVideo(true), send("publisherBackground")], .pausedVideo),
                PublisherStep(3000, key(.decline), [send("publisherInterrupt"), .stop, .toast("Tap to Re-Publish!"), .armTap], .awaitingTap),
                PublisherStep(5000, key(.tap), [.disarmTap, .pauseVideo(false), publish(.live)], .connecting),
            ]
        ),
        PublisherScenario(
            "accept then return: back through the foreground, the same stream continues, no stop",
            policy: .tapRepublish,
            steps: startedBroadcast(.live) + [
                PublisherStep(1000, key(.incomingCall), [.pauseVideo(true), send("publisherBackground")], .pausedVideo),
                PublisherStep(2000, key(.accept), [], .pausedVideo),
                PublisherStep(30000, key(.returnToApp), [.pauseVideo(false), send("publisherForeground")], .publishing),
                PublisherStep(31000, key(.tap), [], .publishing),
            ]
        ),
        PublisherScenario(
            "Home then return: pauseVideo toggles, the recognizer comes and goes unannounced, the stream never stops",
            policy: .tapRepublish,
            steps: startedBroadcast(.live) + [
                PublisherStep(1000, key(.home), [.pauseVideo(true), send("publisherBackground")], .pausedVideo),
                PublisherStep(9000, key(.returnToApp), [.pauseVideo(false), send("publisherForeground")], .publishing),
            ]
        ),
        PublisherScenario(
            "a tap cannot reach the app while the call screen is up",
            policy: .tapRepublish,
            steps: startedBroadcast(.live) + [
                PublisherStep(1000, key(.incomingCall), [.pauseVideo(true), send("publisherBackground")], .pausedVideo),
                PublisherStep(1500, key(.tap), [], .pausedVideo),
            ]
        ),
        PublisherScenario(
            "a tap with nothing published and no tap armed starts a live broadcast",
            policy: .tapRepublish,
            steps: [
                PublisherStep(0, key(.tap), [publish(.live)], .connecting),
                PublisherStep(80, publishStarted, [], .publishing),
                PublisherStep(500, key(.tap), [], .publishing),
            ]
        ),
        PublisherScenario(
            "an interruption before broadcasting still arms the tap on decline, as the seed adds the recognizer regardless",
            policy: .tapRepublish,
            steps: [
                PublisherStep(0, key(.incomingCall), [], .idle),
                PublisherStep(1000, key(.decline), [.toast("Tap to Re-Publish!"), .armTap], .awaitingTap),
                PublisherStep(2000, key(.tap), [.disarmTap, .pauseVideo(false), publish(.live)], .connecting),
            ]
        ),
    ]

    @Test("testbed flows", arguments: scenarios)
    func flow(_ scenario: PublisherScenario) {
        scenario.run()
    }

    @Test("Tap to Re-Publish! is on screen after the decline and gone after its lifetime")
    func toastOnScreen() {
        let session = Self.scenarios[0].run()
        let posted = SessionTime(milliseconds: 4000)
        #expect(session.state.toasts.visible(at: posted).map(\.text) == ["Tap to Re-Publish!"])
        #expect(session.state.toasts.visible(at: posted + .milliseconds(Toast.defaultLifetimeMilliseconds)).isEmpty)
    }
}
