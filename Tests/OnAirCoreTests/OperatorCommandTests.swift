import OnAirCore
import Testing

/// One command vocabulary (issue 15): stdin lines and scenario presses parse to `OperatorCommand`, and one
/// rule says whether a command acts, for every side and front end.
@Suite("Operator commands and their one rule")
struct OperatorCommandTests {
    @Test("every command's name parses back to it; blanks and case are ignored; sub goes to the subscriber")
    func parsing() {
        let commands: [OperatorCommand] =
            OperatorAction.allCases.map { .phone($0) } + OperatorAction.allCases.map { .subscriberPhone($0) }
            + [.publisher(.togglePauseVideo), .publisher(.togglePauseAudio), .publisher(.nextPolicy), .publisher(.stop),
               .publisher(.start(nil)), .subscriber(.play), .subscriber(.stop), .link(.down), .link(.cap(bitsPerSecond: 800_000)),
               .subscriberLink(.handoff(capBitsPerSecond: 300_000, delay: .milliseconds(120))), .quit]
        for command in commands {
            #expect(OperatorCommand(command.name) == command, "\(command.name)")
        }
        #expect(OperatorCommand("\t Sub  HOME ") == .subscriberPhone(.home))
        #expect(OperatorCommand("reconnect") == .publisher(.start(nil)))
        #expect(OperatorCommand("q") == .quit)
        #expect(OperatorCommand("dance") == nil)
        #expect(OperatorCommand("link-cap 9") == nil)
        #expect(OperatorCommand.linkError(in: " sub link-cap 9")?.contains("'9' is not a rate") == true)
        #expect(OperatorCommand.linkError(in: "home") == nil)
    }

    @Test("the rule is the publisher session's own for gestures and controls, over random sessions", arguments: PublisherPolicyKind.allCases)
    func publisherRule(policy: PublisherPolicyKind) {
        var random = SplitMix64(state: UInt64(PublisherPolicyKind.allCases.firstIndex(of: policy) ?? 0) + 29)
        var session = PublisherSession(configuration: PublisherConfiguration(streamName: "s", redactedURL: "", policy: policy))
        let events: [PublisherEvent] = PublisherCommand.all.map(\.event) + [
            .network(.publishStarted), .network(.connectionLost(reason: "reset")), .timerFired(.reconnect), .timerFired(.suspension),
        ]
        let commands: [OperatorCommand] = OperatorAction.allCases.map { .phone($0) }
            + [.publisher(.togglePauseVideo), .publisher(.togglePauseAudio), .publisher(.nextPolicy), .publisher(.stop), .publisher(.start(.record))]
        for step in 0..<1000 {
            _ = session.handle(events[Int(random.next() % UInt64(events.count))], at: SessionTime(milliseconds: Int64(step * 700)))
            let targets = CommandTargets(publisher: session.state)
            for command in commands {
                let core = try! #require(command.publisherCommand)
                #expect(command.refusal(in: targets) == session.refusal(of: core), "\(command.name) at step \(step)")
                #expect(command.refusalMessage(in: targets) == session.refusal(of: core).map { "\(command.name): \($0)" })
            }
        }
    }

    @Test("plain gestures go to the subscriber when there is no publisher, under the subscriber's rule")
    func subscriberRule() {
        var subscriber = SubscriberSession(streamName: "s", redactedURL: "")
        _ = subscriber.handle(.operator(.home), at: SessionTime(milliseconds: 1000))
        let alone = CommandTargets(subscriber: subscriber.state)
        #expect(OperatorCommand.phone(.home).side(in: alone) == .subscriber)
        #expect(OperatorCommand.phone(.home).refusal(in: alone) == subscriber.refusal(of: .home))
        #expect(OperatorCommand.phone(.returnToApp).refusal(in: alone) == nil)
        #expect(OperatorCommand.subscriberPhone(.home).refusalMessage(in: alone)?.hasPrefix("sub home: ") == true)
        #expect(OperatorCommand.publisher(.togglePauseVideo).refusalMessage(in: alone) == "that is a publisher command")
        #expect(OperatorCommand.subscriber(.play).refusal(in: alone) == nil)
    }

    @Test("link commands act whenever the side has a stage; without one the reason names it; a missing side is said so")
    func linkRule() {
        let publisher = PublisherSession(configuration: PublisherConfiguration(streamName: "s", redactedURL: "", policy: .tapRepublish))
        let staged = CommandTargets(publisher: publisher.state, publisherLink: LinkImpairmentState())
        #expect(OperatorCommand.link(.down).refusal(in: staged) == nil)
        let bare = CommandTargets(publisher: publisher.state)
        #expect(OperatorCommand.link(.down).refusalMessage(in: bare)?.hasPrefix("link-down: no link stage") == true)
        #expect(OperatorCommand.subscriberLink(.down).refusalMessage(in: bare) == "that is a subscriber command")
        let demo = CommandTargets(publisher: publisher.state, subscriber: SubscriberSession(streamName: "s", redactedURL: "").state)
        #expect(OperatorCommand.subscriberLink(.down).refusalMessage(in: demo)?.hasPrefix("sub link-down: no link stage") == true)
        #expect(OperatorCommand.quit.refusal(in: CommandTargets()) == nil)
    }

    @Test("a console key on the subscriber pane is the subscriber's command; publisher controls have none")
    func onSubscriber() {
        #expect(OperatorCommand.phone(.home).onSubscriber == .subscriberPhone(.home))
        #expect(OperatorCommand.link(.up).onSubscriber == .subscriberLink(.up))
        #expect(OperatorCommand.publisher(.togglePauseVideo).onSubscriber == nil)
    }
}
