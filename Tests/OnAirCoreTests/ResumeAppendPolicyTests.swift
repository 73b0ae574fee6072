import OnAirCore
import Testing

/// red5pro-blog-ios-interruptions.txt, "Example of Pausing and Resuming Recording on iOS Interruptions".
@Suite("resume-append policy")
struct ResumeAppendPolicyTests {
    static let scenarios: [PublisherScenario] = [
        PublisherScenario(
            "Scenario 1 — Given a broadcast session, When a call interrupts, Then the recording is paused",
            policy: .resumeAppend,
            steps: startedBroadcast(.record) + [
                PublisherStep(1000, key(.incomingCall), [.stop, .preview(true)], .interrupted),
            ]
        ),
        PublisherScenario(
            "Scenario 1 — Given a broadcast session, When Siri is activated, Then the recording is paused",
            policy: .resumeAppend,
            steps: startedBroadcast(.record) + [
                PublisherStep(1000, key(.siri), [.stop, .preview(true)], .interrupted),
            ]
        ),
        PublisherScenario(
            "Scenario 2 — Given a broadcast and a call, When I decline, Then the recording resumes with append",
            policy: .resumeAppend,
            steps: startedBroadcast(.record) + [
                PublisherStep(1000, key(.incomingCall), [.stop, .preview(true)], .interrupted),
                PublisherStep(3000, key(.decline), [.preview(false), publish(.append)], .connecting),
                PublisherStep(3150, publishStarted, [], .publishing),
            ]
        ),
        PublisherScenario(
            "Scenario 2 — Given a broadcast and Siri, When I dismiss Siri, Then the recording resumes with append",
            policy: .resumeAppend,
            steps: startedBroadcast(.record) + [
                PublisherStep(1000, key(.siri), [.stop, .preview(true)], .interrupted),
                PublisherStep(2500, key(.decline), [.preview(false), publish(.append)], .connecting),
            ]
        ),
        PublisherScenario(
            "Scenario 3 — Given a broadcast and a call, When I accept and re-launch, Then nothing resumes and a tap starts a new record session",
            policy: .resumeAppend,
            steps: startedBroadcast(.record) + [
                PublisherStep(1000, key(.incomingCall), [.stop, .preview(true)], .interrupted),
                PublisherStep(2000, key(.accept), [.preview(false)], .idle),
                PublisherStep(60000, key(.returnToApp), [], .idle),
                PublisherStep(61000, key(.tap), [publish(.record)], .connecting),
            ]
        ),
        PublisherScenario(
            "Home stops the broadcast and forgets it; the return does not resume",
            policy: .resumeAppend,
            steps: startedBroadcast(.record) + [
                PublisherStep(1000, key(.home), [.stop, .preview(true), .preview(false)], .idle),
                PublisherStep(5000, key(.returnToApp), [], .idle),
            ]
        ),
        PublisherScenario(
            "an interruption with nothing published changes nothing",
            policy: .resumeAppend,
            steps: [
                PublisherStep(0, key(.incomingCall), [], .idle),
                PublisherStep(1000, key(.decline), [], .idle),
                PublisherStep(2000, key(.tap), [publish(.record)], .connecting),
            ]
        ),
    ]

    @Test("blog scenarios", arguments: scenarios)
    func flow(_ scenario: PublisherScenario) {
        scenario.run()
    }

    @Test("the resumed broadcast keeps the stream name and publishes with append")
    func resumedTypeIsAppend() {
        let session = Self.scenarios[2].run()
        #expect(session.state.publishType == .append)
        #expect(session.state.streamName == stream)
    }
}
