import OnAirConsole
import OnAirCore
import OnAirTestSupport
import Testing

@Suite("Key map and console state")
struct KeyMapTests {
    let map = KeyMap.standard

    /// The key context of a real publisher (live, then moved to `lifecycle`) or subscriber.
    func context(_ lifecycle: LifecycleState, _ status: PublisherStatus = .publishing, focus: ConsolePane = .publisher, mode: ConsoleMode = .normal, panes: Int = 2) -> KeyContext {
        var session = ConsoleFixtures.session(status)
        var subscriber = SubscriberSession(streamName: "stream1", redactedURL: "")
        let keys: [OperatorAction] = lifecycle == .inactive ? [.incomingCall] : lifecycle == .background ? [.home] : []
        for key in keys {
            _ = session.handle(.operator(key), at: SessionTime(milliseconds: 10_000))
            _ = subscriber.handle(.operator(key), at: SessionTime(milliseconds: 10_000))
        }
        return KeyContext(mode: mode, focus: focus, paneCount: panes, publisher: session.state, subscriber: subscriber.state)
    }

    @Test("every key of issue 6 maps to its intent: the operator command stdin and scenarios give, or a console change")
    func table() {
        let expected: [(ConsoleKey, ConsoleIntent)] = [
            (.character("c"), .command(.phone(.incomingCall))), (.character("s"), .command(.phone(.siri))),
            (.character("d"), .command(.phone(.decline))), (.character("a"), .command(.phone(.accept))),
            (.character("h"), .command(.phone(.home))), (.character("f"), .command(.phone(.returnToApp))),
            (.character(" "), .command(.phone(.tap))), (.character("t"), .command(.phone(.tap))),
            (.character("v"), .command(.publisher(.togglePauseVideo))), (.character("m"), .command(.publisher(.togglePauseAudio))),
            (.character("p"), .command(.publisher(.nextPolicy))), (.character("x"), .command(.publisher(.stop))),
            (.character("r"), .command(.publisher(.start(nil)))),
            (.character("o"), .togglePreview), (.character("?"), .toggleHelp), (.character("q"), .quit), (.tab, .switchPane),
        ]
        // The same command a stdin line or a scenario's press spells.
        for (key, word) in [("c", "call"), ("h", "home"), ("f", "return"), ("v", "pause-video"), ("m", "pause-audio"), ("x", "stop"), ("r", "start")] {
            #expect(map.intent(for: .character(Character(key))) == OperatorCommand(word).map(ConsoleIntent.command), "\(key)")
        }
        for (key, intent) in expected {
            #expect(map.intent(for: key) == intent, "\(key)")
        }
        #expect(map.intent(for: .character("y")) == nil)
        #expect(map.intent(for: .character("y"), mode: .confirmingQuit) == .confirm)
        #expect(map.intent(for: .escape, mode: .confirmingQuit) == .cancel)
        #expect(map.intent(for: .character("c"), mode: .confirmingQuit) == nil)
    }

    @Test("no key is bound twice in the same mode")
    func unique() {
        for mode in [ConsoleMode.normal, .help, .confirmingQuit] {
            let keys = map.bindings.filter { map.intent(for: $0.keys[0], mode: mode) != nil }.flatMap(\.keys)
            #expect(Set(keys).count == keys.count, "\(mode)")
        }
    }

    @Test("phone keys are offered exactly when the core accepts them", arguments: LifecycleState.allCases)
    func phoneKeysFollowLifecycle(lifecycle: LifecycleState) {
        let offered = Set(map.available(in: context(lifecycle)).map(\.intent))
        for action in OperatorAction.allCases where action != .tap {
            #expect(offered.contains(.command(.phone(action))) == action.isAllowed(in: lifecycle), "\(action) in \(lifecycle)")
        }
    }

    @Test("Siri up: the footer does not offer accept, as the core refuses it")
    func siriHasNoAccept() {
        var session = ConsoleFixtures.session(.publishing)
        _ = session.handle(.operator(.siri), at: SessionTime(milliseconds: 10_000))
        let context = KeyContext(focus: .publisher, paneCount: 1, publisher: session.state, subscriber: nil)
        let offered = Set(map.available(in: context).map(\.intent))
        #expect(offered.contains(.command(.phone(.decline))))
        #expect(!offered.contains(.command(.phone(.accept))))
        // Issue 28 (10): there is no call: the footer says d dismisses Siri.
        #expect(map.available(in: context).first { $0.intent == .command(.phone(.decline)) }?.label == "dismiss")
        _ = session.handle(.operator(.decline), at: SessionTime(milliseconds: 11_000))
        _ = session.handle(.operator(.incomingCall), at: SessionTime(milliseconds: 12_000))
        let ringing = KeyContext(focus: .publisher, paneCount: 1, publisher: session.state, subscriber: nil)
        #expect(map.available(in: ringing).first { $0.intent == .command(.phone(.decline)) }?.label == "decline")
    }

    @Test("the footer offers exactly the commands the core accepts, over random sessions", arguments: PublisherPolicyKind.allCases)
    func footerIsTheCoreRule(policy: PublisherPolicyKind) {
        var random = SplitMix64(state: UInt64(PublisherPolicyKind.allCases.firstIndex(of: policy) ?? 0) + 13)
        var session = PublisherSession(configuration: PublisherConfiguration(streamName: "s", redactedURL: "", policy: policy))
        let events: [PublisherEvent] = PublisherCommand.all.map(\.event) + [
            .network(.publishStarted), .network(.connectionLost(reason: "reset")), .timerFired(.reconnect), .timerFired(.suspension),
        ]
        for step in 0..<2000 {
            _ = session.handle(events[Int(random.next() % UInt64(events.count))], at: SessionTime(milliseconds: Int64(step * 700)))
            let context = KeyContext(focus: .publisher, paneCount: 1, publisher: session.state, subscriber: nil)
            let offered = Set(map.available(in: context).map(\.intent))
            for command in PublisherCommand.all {
                let intent: ConsoleIntent = switch command {
                case .operator(let action): .command(.phone(action))
                case .control(let control): .command(.publisher(control))
                }
                #expect(offered.contains(intent) == (session.refusal(of: command) == nil), "\(command) at step \(step)")
            }
        }
    }

    @Test("while broadcasting the footer's r reads reconnect; stopped it reads start")
    func reconnectLabel() {
        for status in [PublisherStatus.publishing, .connecting, .stalled] {
            let context = KeyContext(focus: .publisher, paneCount: 1, publisher: ConsoleFixtures.publisher(status), subscriber: nil)
            #expect(map.available(in: context).first { $0.intent == .startBroadcast }?.label == "reconnect", "\(status.badge)")
        }
        let idle = KeyContext(focus: .publisher, paneCount: 1, publisher: ConsoleFixtures.publisher(.idle), subscriber: nil)
        #expect(map.available(in: idle).first { $0.intent == .startBroadcast }?.label == "start")
    }

    @Test("link keys: w downs an up link and raises a down one, k walks the cap presets, refused without a stage")
    func linkKeys() {
        #expect(map.intent(for: .character("w")) == .toggleLink)
        #expect(map.intent(for: .character("W")) == .command(.link(.handoff(capBitsPerSecond: nil, delay: nil))))
        #expect(map.intent(for: .character("k")) == .cycleLinkCap)
        let publisher = ConsoleFixtures.publisher(.publishing)
        let up = KeyContext(focus: .publisher, paneCount: 1, publisher: publisher, subscriber: nil, link: LinkImpairmentState())
        #expect(up.linkCommand(for: .toggleLink) == .down)
        #expect(map.available(in: up).first { $0.intent == .toggleLink }?.label == "link down")
        #expect(map.available(in: up).first { $0.intent == .cycleLinkCap }?.label == "cap 2.5M")
        let down = KeyContext(focus: .publisher, paneCount: 1, publisher: publisher, subscriber: nil, link: LinkImpairmentState(isUp: false, capBitsPerSecond: 250_000))
        #expect(down.linkCommand(for: .toggleLink) == .up)
        #expect(map.available(in: down).first { $0.intent == .toggleLink }?.label == "link up")
        #expect(down.linkCommand(for: .cycleLinkCap) == .uncap)
        let none = KeyContext(focus: .publisher, paneCount: 1, publisher: publisher, subscriber: nil, link: nil)
        for intent in [ConsoleIntent.toggleLink, .command(.link(.handoff(capBitsPerSecond: nil, delay: nil))), .cycleLinkCap] {
            #expect(!map.isAvailable(intent, in: none))
            #expect(none.refusal(of: intent)?.contains("no link stage") == true)
        }
        var ui = ConsoleUIState()
        ui.link = LinkImpairmentState()
        #expect(ui.handle(.character("w"), publisher: publisher, subscriber: nil, now: .zero) == .link(.down))
        #expect(ui.handle(.character("W"), publisher: publisher, subscriber: nil, now: .zero) == .link(.handoff(capBitsPerSecond: nil, delay: nil)))
    }

    @Test("after a failed publish the footer offers r retry")
    func retryAfterError() {
        let context = KeyContext(focus: .publisher, paneCount: 1, publisher: ConsoleFixtures.publisher(.error("refused")), subscriber: nil)
        let retry = map.available(in: context).first { $0.intent == .startBroadcast }
        #expect(retry?.label == "retry")
        #expect(retry?.keys == [.character("r")])
    }

    @Test("publisher-only keys need the publisher pane, pause keys need a live broadcast")
    func publisherKeys() {
        let live = Set(map.available(in: context(.active, .publishing)).map(\.intent))
        let pauseVideo = ConsoleIntent.command(.publisher(.togglePauseVideo)), stop = ConsoleIntent.command(.publisher(.stop))
        let nextPolicy = ConsoleIntent.command(.publisher(.nextPolicy))
        #expect(live.isSuperset(of: [pauseVideo, .command(.publisher(.togglePauseAudio)), nextPolicy, stop, .switchPane]))
        let idle = Set(map.available(in: context(.active, .idle)).map(\.intent))
        #expect(!idle.contains(pauseVideo) && !idle.contains(stop) && idle.contains(nextPolicy) && idle.contains(.startBroadcast))
        let subscriber = Set(map.available(in: context(.active, focus: .subscriber)).map(\.intent))
        #expect(!subscriber.contains(nextPolicy) && !subscriber.contains(.command(.phone(.tap))) && subscriber.contains(.command(.phone(.home))))
        let single = Set(map.available(in: context(.active, panes: 1)).map(\.intent))
        #expect(!single.contains(.switchPane))
    }

    @Test("in a confirmation only y and n/Esc are offered")
    func confirmation() {
        let offered = map.available(in: context(.active, mode: .confirmingQuit)).map(\.intent)
        #expect(offered == [.confirm, .cancel])
    }

    @Test("a key the core's rule refuses still gives its command (the one gate refuses it, as a stdin line's); an unknown key leaves a notice that fades")
    func refusal() {
        var ui = ConsoleUIState()
        let publisher = ConsoleFixtures.publisher(.publishing)
        let command = ui.handle(.character("d"), publisher: publisher, subscriber: nil, now: ConsoleFixtures.now)
        #expect(command == .phone(.decline))
        #expect(ui.notice == nil)
        _ = ui.handle(.character("Z"), publisher: publisher, subscriber: nil, now: ConsoleFixtures.now)
        #expect(ui.notice?.text.contains("? shows the keys") == true)
        #expect(ui.visibleNotice(at: ConsoleFixtures.now)?.contains("? shows the keys") == true)
        #expect(ui.visibleNotice(at: ConsoleFixtures.now + .seconds(5)) == nil)
    }

    @Test("allowed keys become the operator command for the focused pane (sub … on the subscriber's); Tab moves the focus")
    func effects() {
        var ui = ConsoleUIState()
        let publisher = ConsoleFixtures.publisher(.publishing)
        let subscriber = ConsoleFixtures.subscriber()
        #expect(ui.handle(.character("c"), publisher: publisher, subscriber: subscriber, now: .zero) == .phone(.incomingCall))
        #expect(ui.handle(.character("v"), publisher: publisher, subscriber: subscriber, now: .zero) == .publisher(.togglePauseVideo))
        #expect(ui.handle(.tab, publisher: publisher, subscriber: subscriber, now: .zero) == nil)
        #expect(ui.focus == .subscriber)
        #expect(ui.handle(.character("h"), publisher: publisher, subscriber: subscriber, now: .zero) == .subscriberPhone(.home))
        #expect(ui.handle(.character("v"), publisher: publisher, subscriber: subscriber, now: .zero) == nil)
        #expect(ui.notice?.text.contains("Tab") == true)
    }

    @Test("q asks first while live: y stops and quits, n cancels; q quits at once when not live")
    func quit() {
        var ui = ConsoleUIState()
        let live = ConsoleFixtures.publisher(.publishing)
        #expect(ui.handle(.character("q"), publisher: live, subscriber: nil, now: .zero) == nil)
        #expect(ui.confirmingQuit)
        #expect(ui.handle(.character("c"), publisher: live, subscriber: nil, now: .zero) == nil)
        #expect(ui.handle(.character("n"), publisher: live, subscriber: nil, now: .zero) == nil)
        #expect(!ui.confirmingQuit)
        _ = ui.handle(.character("q"), publisher: live, subscriber: nil, now: .zero)
        #expect(ui.handle(.character("y"), publisher: live, subscriber: nil, now: .zero) == .quit)
        var idle = ConsoleUIState()
        #expect(idle.handle(.character("q"), publisher: ConsoleFixtures.publisher(.idle), subscriber: nil, now: .zero) == .quit)
    }

    @Test("? opens help, any other key closes it without acting; o toggles the preview")
    func helpAndPreview() {
        var ui = ConsoleUIState()
        let publisher = ConsoleFixtures.publisher(.publishing)
        _ = ui.handle(.character("?"), publisher: publisher, subscriber: nil, now: .zero)
        #expect(ui.showHelp && ui.mode == .help)
        #expect(ui.handle(.character("c"), publisher: publisher, subscriber: nil, now: .zero) == nil)
        #expect(!ui.showHelp)
        _ = ui.handle(.character("o"), publisher: publisher, subscriber: nil, now: .zero)
        #expect(!ui.showPreview)
    }

    @Test("the footer of a screen lists exactly the keys available now")
    func footerFromTable() {
        let screen = ConsoleScreen(publisher: ConsoleFixtures.publisher(.pausedVideo), now: ConsoleFixtures.now)
        // The footer takes a second row when one does not hold every key.
        let footer = screen.render(width: 120, height: 24, theme: .builtInDefault).textLines().suffix(Footer.maximumRows).joined(separator: "\n")
        #expect(footer.contains("d decline") && footer.contains("a accept"))
        #expect(!footer.contains("c call") && !footer.contains("Tab"))
    }
}

@Suite("device keys")
struct DeviceKeyTests {
    @Test("C and A take the camera and the microphone away, then give them back; the footer says which")
    func toggles() {
        var context = KeyContext(focus: .publisher, paneCount: 1, publisher: PublisherAppState(policy: .tapRepublish, streamName: "s", redactedURL: "rtmp://h/live/s"), subscriber: nil)
        let map = KeyMap.standard
        #expect(map.intent(for: .character("C")) == .toggleDevice(.camera))
        #expect(context.command(for: .toggleDevice(.camera)) == .device(.cameraLost))
        #expect(context.command(for: .toggleDevice(.microphone)) == .device(.micLost))
        #expect(map.available(in: context).contains { $0.label == "camera lost" })
        context.devicesTaken = [.camera, .microphone]
        #expect(context.command(for: .toggleDevice(.camera)) == .device(.cameraBack))
        #expect(context.command(for: .toggleDevice(.microphone)) == .device(.micBack))
        #expect(map.available(in: context).contains { $0.label == "mic back" })
        let subscriberPane = KeyContext(focus: .subscriber, paneCount: 2, publisher: PublisherAppState(policy: .tapRepublish, streamName: "s", redactedURL: "rtmp://h/live/s"), subscriber: SubscriberAppState(streamName: "s", redactedURL: "rtmp://h/live/s"))
        #expect(subscriberPane.command(for: .toggleDevice(.camera)) == nil, "a publisher key")
    }
}
