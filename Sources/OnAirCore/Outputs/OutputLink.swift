/// One further destination of a broadcast (`onair publish URL URL …`, outputs 2 and on): where its own
/// connection is, its own send-stall watchdog and its own reconnect backoff, as a value that returns what
/// its owner must do (docs/multi-destination.md).
///
/// Why a machine of its own rather than a second `PublisherSession`: the session is the app's life (calls,
/// Home, policies, notices), which there is one of per broadcast; an output is only a connection that
/// follows whether the broadcast wants to be on air. Its failures are its own: a refusal, a lost connection
/// or a socket that takes nothing is retried with the output's backoff (`ReconnectPolicy`, OBS's numbers,
/// its jitter drawn per output so outputs that lost one server do not retry in lock-step) and never
/// reaches the session or another output (obs-multi-rtmp #446, #470). Unlike the broadcast's first
/// output, a refusal of its first publish is retried too: one destination's typo must not end a broadcast
/// that the others carry.
///
/// Pure: time comes in with each event; the owner turns `schedule` into timers and `connect` into a new
/// `RTMPPublisher` fed from the output's own queue.
public struct OutputLink: Sendable, Equatable {
    public enum Phase: Sendable, Equatable {
        /// Not on air: the broadcast is not, or this output was stopped.
        case idle
        /// A publish is under way; `attempt` while it is a reconnect.
        case connecting(attempt: Int?)
        /// The server accepted the publish at `since`; the watchdog says whether the socket takes bytes.
        case live(since: SessionTime, watchdog: SendStallWatchdog)
        /// Lost or refused; attempt `attempt` waits for its timer.
        case waitingToReconnect(attempt: Int)
        /// Gave up after the policy's last attempt; `reconnectNow` or a new broadcast tries again.
        case failed(String)
    }

    public enum Timer: Sendable, Hashable {
        case reconnect
        case sendStall
    }

    public enum Event: Sendable, Equatable {
        /// The broadcast wants to be on air with `type` (a no-op while this output already is).
        case start(PublishType)
        /// The broadcast ended (an `x`, a policy's stop, a quit).
        case stop
        /// The server said `NetStream.Publish.Start` on the connection under way.
        case published
        case publishFailed(String)
        case lost(String)
        /// What this output's socket has taken so far (the owner reads it a few times a second).
        case wire(WireProgress)
        case timerFired(Timer)
        /// The operator's `r` for this output: drop the connection and publish again at once, backoff reset.
        case reconnectNow
    }

    public enum Action: Sendable, Equatable {
        /// Open a new connection and publish with `type`; media goes to it from the next keyframe.
        case connect(PublishType)
        /// Close the connection: `draining` gives the unpublish a moment; a dead socket is left at once.
        case disconnect(draining: Bool)
        case schedule(Timer, after: Duration)
        case cancel(Timer)
        /// A line for the output's event log and `output` events (no secret in it: the owner adds the URL).
        case report(String)
    }

    /// 1-based, as the operator names it (`press link-down 2`, the dashboard's rows).
    public let index: Int
    public private(set) var phase: Phase = .idle
    /// Connections this output has made again after losing one (its reconnects, as the dashboard counts).
    public private(set) var reconnects = 0
    /// Times the watchdog found the socket taking nothing for the send timeout (STALLED spells).
    public private(set) var stalls = 0
    private var reconnect: ReconnectPolicy
    private let sendTimeout: Duration
    private var type: PublishType = .live

    public init(index: Int, reconnect: ReconnectPolicy, sendTimeout: Duration = .seconds(5)) {
        self.index = index
        self.reconnect = reconnect
        self.sendTimeout = sendTimeout
    }

    /// On air or getting there: the broadcast wants this output and it has not given up.
    public var isActive: Bool {
        switch phase {
        case .connecting, .live, .waitingToReconnect: true
        case .idle, .failed: false
        }
    }

    /// The server accepted the publish (STALLED included).
    public var isLive: Bool {
        if case .live = phase { return true }
        return false
    }

    /// While STALLED: since when the socket took nothing.
    public var stall: SendStall? {
        if case .live(_, let watchdog) = phase { return watchdog.stall }
        return nil
    }

    /// Why `reconnect N` (`reconnectNow`) would do nothing now, or nil when it acts: an idle output
    /// follows the broadcast, which is not on air (after ERROR it acts: that is how to try again).
    public var reconnectRefusal: String? {
        phase == .idle ? "output \(index) is not on air (the broadcast is stopped; r or start starts it)" : nil
    }

    /// The dashboard's word for the phase.
    public var stateText: String {
        switch phase {
        case .idle: "IDLE"
        case .connecting(nil): "CONNECTING"
        case .connecting(let attempt?): "RECONNECTING \(attempt)/\(reconnect.configuration.maxAttempts)"
        case .live: stall == nil ? "PUBLISHING" : "STALLED"
        case .waitingToReconnect(let attempt): "RECONNECTING \(attempt)/\(reconnect.configuration.maxAttempts)"
        case .failed: "ERROR"
        }
    }

    public mutating func handle(_ event: Event, at now: SessionTime) -> [Action] {
        switch event {
        case .start(let type):
            guard !isActive else { return [] }
            self.type = type
            reconnect.reset()
            phase = .connecting(attempt: nil)
            return [.report("publish \(type.rawValue)"), .connect(type)]
        case .stop:
            guard phase != .idle else { return [] }
            let wasConnected = isActive
            phase = .idle
            return [.cancel(.reconnect), .cancel(.sendStall)] + (wasConnected ? [.disconnect(draining: true)] : []) + [.report("stopped")]
        case .published:
            guard case .connecting(let attempt) = phase else { return [] }
            if attempt != nil { reconnects += 1 }
            reconnect.reset()
            phase = .live(since: now, watchdog: SendStallWatchdog(stallAfter: sendTimeout, liveAt: now))
            return [.report("live"), .schedule(.sendStall, after: sendTimeout)]
        case .publishFailed(let reason):
            guard case .connecting = phase else { return [] }
            return [.disconnect(draining: false)] + scheduleReconnect(after: "publish failed: \(reason)")
        case .lost(let reason):
            guard case .live = phase else {
                if case .connecting = phase { return [.disconnect(draining: false)] + scheduleReconnect(after: "connection lost: \(reason)") }
                return []
            }
            return [.cancel(.sendStall), .disconnect(draining: false)] + scheduleReconnect(after: "connection lost: \(reason)")
        case .wire(let progress):
            guard case .live(let since, var watchdog) = phase else { return [] }
            let wasStalled = watchdog.stall != nil
            let progressed = watchdog.record(progress, at: now)
            phase = .live(since: since, watchdog: watchdog)
            guard wasStalled, progressed else { return [] }
            return [.report("the socket accepts bytes again")] + checkStall(at: now)
        case .timerFired(.sendStall):
            return checkStall(at: now)
        case .timerFired(.reconnect):
            guard case .waitingToReconnect(let attempt) = phase else { return [] }
            phase = .connecting(attempt: attempt)
            return [.connect(type == .live ? .live : .append)]
        case .reconnectNow:
            guard phase != .idle else { return [] }
            let wasConnected = isActive
            reconnect.reset()
            let attempt = reconnect.nextAttempt()?.number
            phase = .connecting(attempt: attempt)
            return [.cancel(.reconnect), .cancel(.sendStall)] + (wasConnected ? [.disconnect(draining: false)] : [])
                + [.report("reconnect now"), .connect(type == .live ? .live : .append)]
        }
    }

    /// The watchdog's verdict, acted on: look again later, STALLED, or give the connection up and reconnect.
    private mutating func checkStall(at now: SessionTime) -> [Action] {
        guard case .live(let since, var watchdog) = phase else { return [] }
        let wasStalled = watchdog.stall != nil
        let verdict = watchdog.check(at: now)
        phase = .live(since: since, watchdog: watchdog)
        switch verdict {
        case .flowing(let recheckAt):
            return [.schedule(.sendStall, after: max(recheckAt.since(now), .milliseconds(1)))]
        case .stalled(let stall):
            var actions: [Action] = []
            if !wasStalled {
                stalls += 1
                actions.append(.report("send stalled: the socket accepted nothing for \(now.since(stall.since).wholeMilliseconds) ms"))
            }
            return actions + [.schedule(.sendStall, after: max(stall.tearDownAt.since(now), .milliseconds(1)))]
        case .awaitingReport:
            // The next wire report decides; look again a little later in case none comes.
            return [.schedule(.sendStall, after: .milliseconds(500))]
        case .tearDown(let quiet):
            return [.disconnect(draining: false)]
                + scheduleReconnect(after: "send stalled: the socket accepted nothing for \(quiet.wholeMilliseconds / 1000) s")
        }
    }

    /// The next attempt with the backoff, or ERROR once the policy is exhausted.
    private mutating func scheduleReconnect(after reason: String) -> [Action] {
        guard let attempt = reconnect.nextAttempt() else {
            let attempts = reconnect.configuration.maxAttempts
            phase = .failed("\(reason); gave up after \(attempts) reconnect attempts")
            return [.report("\(reason); gave up after \(attempts) reconnect attempts")]
        }
        phase = .waitingToReconnect(attempt: attempt.number)
        return [
            .report("\(reason); reconnect \(attempt.number)/\(reconnect.configuration.maxAttempts) in \(attempt.delay.wholeMilliseconds) ms"),
            .schedule(.reconnect, after: attempt.delay),
        ]
    }
}
