import OnAirCore
import Testing

/// vonage-ios-background-state.txt, red5pro-subscribe-background.md.
@Suite("background-audio policy")
struct BackgroundAudioPolicyTests {
    static let suspend = PublisherAction.scheduleTimer(.suspension, after: .seconds(10))

    static let scenarios: [PublisherScenario] = [
        PublisherScenario(
            "Home keeps the session: video pauses in the background, the camera resumes with a keyframe",
            policy: .backgroundAudio,
            steps: startedBroadcast(.live) + [
                PublisherStep(1000, key(.home), [.pauseVideo(true)], .pausedVideo),
                PublisherStep(20000, key(.returnToApp), [.pauseVideo(false), .requestKeyframe], .publishing),
            ]
        ),
        PublisherScenario(
            "a call declined within the suspension timeout resumes the same stream",
            policy: .backgroundAudio,
            steps: startedBroadcast(.live) + [
                PublisherStep(1000, key(.incomingCall), [.pauseVideo(true), .pauseAudio(true), suspend], .interrupted),
                PublisherStep(
                    6000, key(.decline),
                    [.cancelTimer(.suspension), .pauseAudio(false), .pauseVideo(false), .requestKeyframe], .publishing
                ),
                PublisherStep(11000, .timerFired(.suspension), [], .publishing),
            ]
        ),
        PublisherScenario(
            "a call declined after the suspension timeout: the connection drops, then the publisher reconnects",
            policy: .backgroundAudio,
            steps: startedBroadcast(.live) + [
                PublisherStep(1000, key(.incomingCall), [.pauseVideo(true), .pauseAudio(true), suspend], .interrupted),
                PublisherStep(11000, .timerFired(.suspension), [.dropConnection], .interrupted),
                PublisherStep(11020, lost("closed"), [], .interrupted),
                PublisherStep(
                    15000, key(.decline),
                    [.pauseAudio(false), .pauseVideo(false), .requestKeyframe, publish(.live)], .connecting
                ),
                PublisherStep(15100, publishStarted, [], .publishing),
            ]
        ),
        PublisherScenario(
            "a call accepted within the timeout: audio resumes when it ends, video on the way to the foreground",
            policy: .backgroundAudio,
            steps: startedBroadcast(.live) + [
                PublisherStep(1000, key(.incomingCall), [.pauseVideo(true), .pauseAudio(true), suspend], .interrupted),
                PublisherStep(2000, key(.accept), [], .interrupted),
                PublisherStep(
                    8000, key(.returnToApp),
                    [.cancelTimer(.suspension), .pauseAudio(false), .pauseVideo(false), .requestKeyframe], .publishing
                ),
            ]
        ),
        PublisherScenario(
            "a call accepted past the timeout: dropped while suspended, reconnected on return",
            policy: .backgroundAudio,
            steps: startedBroadcast(.live) + [
                PublisherStep(1000, key(.incomingCall), [.pauseVideo(true), .pauseAudio(true), suspend], .interrupted),
                PublisherStep(2000, key(.accept), [], .interrupted),
                PublisherStep(11000, .timerFired(.suspension), [.dropConnection], .interrupted),
                PublisherStep(
                    90000, key(.returnToApp),
                    [.pauseAudio(false), publish(.live), .pauseVideo(false), .requestKeyframe], .connecting
                ),
                PublisherStep(90100, publishStarted, [], .publishing),
            ]
        ),
        PublisherScenario(
            "a recording dropped while suspended continues with append",
            policy: .backgroundAudio,
            steps: [
                PublisherStep(0, .control(.start(.record)), [publish(.record)], .connecting),
                PublisherStep(100, publishStarted, [], .publishing),
                PublisherStep(1000, key(.incomingCall), [.pauseVideo(true), .pauseAudio(true), suspend], .interrupted),
                PublisherStep(11000, .timerFired(.suspension), [.dropConnection], .interrupted),
                PublisherStep(
                    12000, key(.decline),
                    [.pauseAudio(false), .pauseVideo(false), .requestKeyframe, publish(.append)], .connecting
                ),
            ]
        ),
        PublisherScenario(
            "a network loss while suspended: the suspension drop cancels the pending reconnect, the call's end republishes",
            policy: .backgroundAudio,
            steps: startedBroadcast(.live) + [
                PublisherStep(1000, key(.incomingCall), [.pauseVideo(true), .pauseAudio(true), suspend], .interrupted),
                PublisherStep(10000, lost(), [.scheduleTimer(.reconnect, after: .seconds(2))], .reconnecting(attempt: 1, maxAttempts: 20)),
                PublisherStep(11000, .timerFired(.suspension), [.cancelTimer(.reconnect), .dropConnection], .interrupted),
                PublisherStep(12000, .timerFired(.reconnect), [], .interrupted),
                PublisherStep(
                    15000, key(.decline),
                    [.pauseAudio(false), .pauseVideo(false), .requestKeyframe, publish(.live)], .connecting
                ),
            ]
        ),
        PublisherScenario(
            "the operator's stop after a suspension drop returns to idle; the call's end gives camera and microphone back",
            policy: .backgroundAudio,
            steps: startedBroadcast(.live) + [
                PublisherStep(1000, key(.incomingCall), [.pauseVideo(true), .pauseAudio(true), suspend], .interrupted),
                PublisherStep(11000, .timerFired(.suspension), [.dropConnection], .interrupted),
                PublisherStep(12000, .control(.stop), [], .idle),
                PublisherStep(13000, key(.decline), [.pauseVideo(false), .pauseAudio(false)], .idle),
            ]
        ),
        PublisherScenario(
            "Siri does not take the audio device: nothing changes",
            policy: .backgroundAudio,
            steps: startedBroadcast(.live) + [
                PublisherStep(1000, key(.siri), [], .publishing),
                PublisherStep(3000, key(.decline), [], .publishing),
            ]
        ),
    ]

    @Test("background and suspension flows", arguments: scenarios)
    func flow(_ scenario: PublisherScenario) {
        scenario.run()
    }
}
