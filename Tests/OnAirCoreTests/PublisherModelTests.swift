import OnAirCore
import Testing

/// The model test of issue 13: seeded random sequences of keys, controls, policy switches, network events,
/// stalls and timer ticks driven through the pure publisher session, with the invariants checked after
/// every step. A failure names the seed and step and prints the sequence that led there.
@Suite("Publisher model")
struct PublisherModelTests {
    static let sequences = 10_000
    static let steps = 30

    @Test("10 000 random sequences keep every invariant after every step")
    func randomSequences() {
        var failures: [String] = []
        for seed in 0..<UInt64(Self.sequences) {
            var model = PublisherModel(seed: seed)
            for step in 0..<Self.steps {
                if let failure = model.step() {
                    failures.append("seed \(seed) step \(step): \(failure)\n  " + model.history.joined(separator: "\n  "))
                    break
                }
            }
            if failures.count >= 3 { break }
        }
        #expect(failures.isEmpty, "\(failures.joined(separator: "\n"))")
    }

    @Test("the same seed replays the same sequence")
    func reproducible() {
        var first = PublisherModel(seed: 42)
        var second = PublisherModel(seed: 42)
        for _ in 0..<Self.steps {
            _ = first.step()
            _ = second.step()
        }
        #expect(first.history == second.history)
        #expect(first.session == second.session)
    }

    @Test("c, p, d under every policy ends where a tap or a return publishes video again", arguments: PublisherPolicyKind.allCases)
    func callPolicyDecline(policy: PublisherPolicyKind) {
        var session = PublisherSession(configuration: PublisherConfiguration(streamName: "cam", redactedURL: "rtmp://h/live/cam", policy: policy))
        var now = SessionTime.zero
        func feed(_ event: PublisherEvent) -> [PublisherAction] {
            now = now + .milliseconds(500)
            return session.handle(event, at: now)
        }
        _ = feed(.control(.start(nil)))
        _ = feed(.network(.publishStarted))
        _ = feed(.operator(.incomingCall))
        _ = feed(.control(.nextPolicy))
        _ = feed(.operator(.decline))
        if policy == .tapRepublish {
            // The seed's decline stops the stream and offers the tap: the interruption ends for the
            // broadcast when that tap re-publishes, and only then does the next policy take over.
            #expect(session.state.status == .awaitingTap && session.state.tapArmed && session.state.policy == policy,
                    "the decline's \"Tap to Re-Publish!\" keeps its tap: \(session.state.status.badge)")
            #expect(session.state.pendingPolicy == policy.next)
            _ = feed(.operator(.tap))
        }
        #expect(session.state.policy == policy.next, "p during the call takes effect when it ends")
        #expect(session.state.lifecycle == .active)
        #expect(!session.state.pauseVideo, "no video paused by an interruption that is over")
        #expect(!session.state.pauseAudio)
        #expect(PublisherModel.publishesVideoAgain(session, at: now), "\(session.state.status.badge)")
    }
}

/// One random walk through a publisher session, with the bookkeeping the invariants need.
struct PublisherModel {
    private(set) var session: PublisherSession
    private(set) var history: [String] = []
    private var random: SplitMix64
    private var now = SessionTime.zero
    private var bytesWritten: UInt64 = 0
    /// The test's own account of the "Tap to Re-Publish!" toast: shown, and not answered since.
    private var tapToastUnanswered = false
    private let maxAttempts: Int
    /// The timers as the owner runs them: started and cancelled by the actions, gone once fired.
    private var ownerTimers: Set<PublisherTimer> = []

    init(seed: UInt64) {
        random = SplitMix64(state: seed)
        let policy = PublisherPolicyKind.allCases[Int(random.next() % 3)]
        let attempts = Int(random.next() % 4)
        maxAttempts = attempts
        session = PublisherSession(configuration: PublisherConfiguration(
            streamName: "cam", redactedURL: "rtmp://h/live/cam", policy: policy,
            suspendTimeout: .seconds(Int64(2 + random.next() % 10)),
            reconnect: ReconnectPolicy(configuration: .init(maxAttempts: attempts), jitterUnit: 0),
            sendTimeout: .seconds(Int64(1 + random.next() % 5))
        ))
        history.append("policy \(policy.rawValue), \(attempts) reconnect attempts")
        if random.next() % 4 != 0 { feed(.control(.start(nil))) }
    }

    private mutating func draw(_ upper: Int) -> Int { Int(random.next() % UInt64(upper)) }

    /// The next random event: mostly operator commands, then network events, timers running out, and
    /// samples of a socket that moves or stalls.
    private mutating func nextEvent() -> PublisherEvent {
        switch draw(10) {
        case 0...5:
            return PublisherCommand.all[draw(PublisherCommand.all.count)].event
        case 6:
            switch draw(4) {
            case 0: return .network(.publishFailed(reason: "NetStream.Publish.BadName"))
            case 1: return .network(.connectionLost(reason: "reset by peer"))
            default: return .network(.publishStarted)
            }
        case 7, 8:
            let timers = session.state.timerDeadlines.sorted { $0.value < $1.value }
            guard let (timer, deadline) = timers.first else { return .network(.publishStarted) }
            if deadline > now { now = deadline }
            return .timerFired(timer)
        default:
            if draw(3) == 0 { bytesWritten += UInt64(1 + draw(100_000)) }
            return .wire(WireProgress(bytesWritten: bytesWritten, writePending: draw(4) != 0))
        }
    }

    /// One random step; returns what went wrong, or nil.
    mutating func step() -> String? {
        now = now + .milliseconds(Int64(50 + draw(3000)))
        return feed(nextEvent())
    }

    @discardableResult
    private mutating func feed(_ event: PublisherEvent) -> String? {
        let before = session
        let command = Self.command(of: event)
        let refusal = command.flatMap { session.refusal(of: $0) }
        let toastsBefore = session.state.toasts.postedCount
        if case .timerFired(let timer) = event { ownerTimers.remove(timer) }
        let actions = session.handle(event, at: now)
        for action in actions {
            switch action {
            case .scheduleTimer(let timer, _): ownerTimers.insert(timer)
            case .cancelTimer(let timer): ownerTimers.remove(timer)
            default: break
            }
        }
        if ownerTimers != session.pendingTimers {
            return "the owner runs \(ownerTimers.map(\.rawValue).sorted()), the session counts on \(session.pendingTimers.map(\.rawValue).sorted())"
        }
        history.append("\(now.milliseconds) \(event) → \(session.state.status.badge)\(refusal.map { " (refused: \($0))" } ?? "")")

        // The footer offers exactly what the core accepts: a command the rule accepts changes the session,
        // one it refuses changes nothing and asks nothing of the owner.
        if let command {
            if refusal != nil {
                if !actions.isEmpty || Fingerprint(before) != Fingerprint(session) { return "\(command) refused but acted on" }
            } else if Fingerprint(before) == Fingerprint(session) {
                return "\(command) accepted but did nothing"
            }
        }
        if session.state.refusals != Dictionary(uniqueKeysWithValues: PublisherCommand.all.compactMap { c in session.refusal(of: c).map { (c, $0) } }) {
            return "state.refusals differs from the rule"
        }

        let tapToast = session.state.toasts.toasts(after: toastsBefore).contains { $0.text == "Tap to Re-Publish!" }
        // Answered: a tap, a return (the seed removes the recognizer on the way to the foreground), stop,
        // start, or another policy taking over (at once, or when the interruption ends).
        var answered = before.policy.kind != session.policy.kind
        if let command, refusal == nil {
            switch command {
            case .operator(.tap), .operator(.returnToApp), .control(.stop), .control(.start): answered = true
            default: break
            }
        }
        tapToastUnanswered = (tapToastUnanswered || tapToast) && !answered
        return checkInvariants()
    }

    private func checkInvariants() -> String? {
        let state = session.state
        let interrupted = state.lifecycle != .active || session.simulator.interruption != nil || session.policy.isInterrupted
        if !interrupted && !state.tapArmed {
            if state.pauseVideo && !state.operatorPausedVideo { return "app ACTIVE, nothing interrupts it, yet video is paused" }
            if state.pauseAudio && !state.operatorPausedAudio { return "app ACTIVE, nothing interrupts it, yet audio is paused" }
        }
        if state.tapArmed != tapToastUnanswered {
            return "tapArmed \(state.tapArmed) but the Tap to Re-Publish! toast is \(tapToastUnanswered ? "" : "not ")shown and unanswered"
        }
        if state.tapArmed != (state.status == .awaitingTap) && [.idle(preview: false), .idle(preview: true)].contains(session.connection) && !session.policy.isInterrupted {
            return "tapArmed \(state.tapArmed) with status \(state.status.badge)"
        }
        if !session.connection.isBroadcasting, !Self.publishesVideoAgain(session, at: now) {
            return "stopped (\(state.status.badge)) and no key publishes video again"
        }
        return Self.phaseInvariant(session, maxAttempts: maxAttempts, at: now)
    }

    /// Each fact in one place, and no timer outliving its phase: the connection phase and what the
    /// dashboard shows agree, the reconnect attempt exists only while one is scheduled or under way, the
    /// reconnect timer runs exactly while waiting for it, the watchdog's timer only while live (and while
    /// live unless its last check waits for a report).
    static func phaseInvariant(_ session: PublisherSession, maxAttempts: Int, at now: SessionTime) -> String? {
        let state = session.state
        let phase = session.connection
        switch phase {
        case .waitingToReconnect(let attempt), .connecting(reconnectAttempt: let attempt?):
            if state.status != .reconnecting(attempt: attempt, maxAttempts: maxAttempts) {
                return "attempt \(attempt) in \(phase) but the badge says \(state.status.badge)"
            }
            if attempt < 1 || attempt > maxAttempts { return "attempt \(attempt) of \(maxAttempts)" }
        default:
            if case .reconnecting = state.status { return "RECONNECTING with no attempt in \(phase)" }
        }
        if session.pendingTimers.contains(.reconnect) != (phase.reconnectAttempt != nil && !isConnecting(phase)) {
            return "the reconnect timer \(session.pendingTimers.contains(.reconnect) ? "runs" : "does not run") in \(phase)"
        }
        if session.pendingTimers.contains(.sendStall) {
            if !phase.isLive { return "the watchdog's timer runs in \(phase)" }
        } else if case .live(_, var watchdog) = phase, watchdog.check(at: now) != .awaitingReport {
            return "live with no watchdog timer and no check waiting for a report"
        }
        if state.tapArmed != session.policy.isTapArmed { return "state.tapArmed differs from the policy's" }
        if state.policy != session.policy.kind { return "state.policy differs from the policy in force" }
        if state.sendStall != phase.sendStall || (state.sendStall != nil) != (state.status == .stalled) {
            return "sendStall \(String(describing: state.sendStall)) with \(state.status.badge) in \(phase)"
        }
        if state.liveSince != phase.liveSince { return "liveSince differs from the live phase's" }
        if phase.isLive && state.onAirSince == nil { return "live with no time on air" }
        if state.onAirSince != nil && !phase.isBroadcasting { return "time on air in \(phase)" }
        if session.previewOn && state.status != .preview && !session.policy.isInterrupted && !state.tapArmed {
            return "preview on with \(state.status.badge)"
        }
        return nil
    }

    private static func isConnecting(_ phase: PublisherConnectionPhase) -> Bool {
        if case .connecting = phase { return true }
        return false
    }

    /// A broadcast under way with video on, or, from a stopped one, the operator's obvious way back — end the interruption (`d` or `f`),
    /// then a tap, or start — publishes with video on.
    static func publishesVideoAgain(_ stopped: PublisherSession, at start: SessionTime) -> Bool {
        var session = stopped
        var now = start
        if session.connection.isBroadcasting { return !session.state.pauseVideo }
        for _ in 0..<4 {
            now = now + .milliseconds(100)
            let key: PublisherCommand
            switch session.state.lifecycle {
            case .inactive: key = .operator(.decline)
            case .background: key = .operator(.returnToApp)
            case .active:
                key = session.refusal(of: .operator(.tap)) == nil ? .operator(.tap) : .control(.start(nil))
            }
            guard session.refusal(of: key) == nil else { return false }
            let actions = session.handle(key.event, at: now)
            if actions.contains(where: { if case .publish = $0 { true } else { false } }) {
                return !session.state.pauseVideo
            }
            if session.connection.isBroadcasting { return !session.state.pauseVideo }
        }
        return false
    }

    static func command(of event: PublisherEvent) -> PublisherCommand? {
        switch event {
        case .operator(let action): .operator(action)
        case .control(let control): .control(control)
        case .network, .timerFired, .wire, .engine, .refused: nil
        }
    }
}

/// What a command may change, without the log and toasts (a refusal writes both).
private struct Fingerprint: Equatable {
    let state: PublisherAppState
    let simulator: LifecycleSimulator
    let policy: PublisherPolicy
    let connection: PublisherConnectionPhase
    let previewOn: Bool

    init(_ session: PublisherSession) {
        var state = session.state
        state.log = EventLog()
        state.toasts = ToastQueue()
        self.state = state
        simulator = session.simulator
        policy = session.policy
        connection = session.connection
        previewOn = session.previewOn
    }
}
