/// Network events and automatic reconnects.
///
/// A connection lost without being asked for is retried with `ReconnectPolicy` (OBS's
/// `obs_output_signal_stop` → `output_reconnect`): RECONNECTING n/N, a keyframe first so the new stream
/// starts decodable, the same name as `append` when the broadcast was recording (the blog's `resume:`)
/// and `live` otherwise. After the last attempt the session stops in a clear ERROR. Any `stop` —
/// the operator's or a policy's — cancels a pending reconnect.
extension PublisherSession {
    mutating func handleNetwork(_ event: PublisherNetworkEvent, at now: SessionTime) -> [PublisherAction] {
        switch event {
        case .publishStarted, .moveRequested, .moved: log(now, .rtmp, "\(event)")
        case .linkChanged: log(now, .engine, "\(event)")
        case .publishFailed, .connectionLost: log(now, .error, "\(event)")
        }
        switch event {
        case .moveRequested, .moved:
            return []       // the controller moves the live broadcast; the session's state does not change
        case .linkChanged:
            return []
        case .publishStarted:
            guard case .connecting = connection else {
                log(now, .rtmp, "ignored: no publish under way")
                return []
            }
            reconnect.reset()
            return enter(.live(since: now, watchdog: SendStallWatchdog(stallAfter: sendTimeout, liveAt: now)), at: now)
        case .publishFailed(let reason):
            guard case .connecting(let attempt) = connection else {
                log(now, .rtmp, "ignored: no publish under way")
                return []
            }
            if attempt != nil { return scheduleReconnect(after: reason, at: now) }
            return enter(.failed("publish refused: \(reason)"), at: now)
        case .connectionLost(let reason):
            switch connection {
            case .live, .connecting:
                if connection.reconnectAttempt == nil { reconnect.reset() }
                return scheduleReconnect(after: reason, at: now)
            case .idle, .dropped, .failed, .waitingToReconnect:
                log(now, .engine, "ignored: no connection to lose")
                return []
            }
        }
    }

    /// The type a publish that continues this broadcast on a new connection takes (a server's move).
    public var continuingType: PublishType { context.republishType }

    /// Schedules the next attempt, or gives up with an error once the policy is exhausted.
    private mutating func scheduleReconnect(after reason: String, at now: SessionTime) -> [PublisherAction] {
        guard let attempt = reconnect.nextAttempt() else {
            let attempts = reconnect.configuration.maxAttempts
            let actions = enter(.failed("connection lost (\(reason)); gave up after \(attempts) reconnect attempts"), at: now)
            log(now, .error, "reconnect gave up after \(attempts) attempts")
            return actions
        }
        let actions = enter(.waitingToReconnect(attempt: attempt.number), at: now)
        log(now, .engine, "reconnect \(attempt.number)/\(reconnect.configuration.maxAttempts) in \(attempt.delay.wholeMilliseconds) ms")
        return actions + apply(.scheduleTimer(.reconnect, after: attempt.delay), at: now)
    }

    /// The reconnect timer ran out: publish again on a new connection, keyframe first. The publish
    /// carries the waiting attempt into `connecting`.
    mutating func attemptReconnect(at now: SessionTime) -> [PublisherAction] {
        guard case .waitingToReconnect = connection else { return [] }
        let type = context.republishType
        return apply(.requestKeyframe, at: now) + apply(.publish(name: state.streamName, type: type), at: now)
    }

    /// `r` while a broadcast is connecting, live, stalled or waiting to reconnect: drop the connection and
    /// connect + publish again at once, with the backoff reset. The new publish counts as attempt 1 of a
    /// reconnect, so a refusal (the server may still hold the old publisher for a moment) is retried by the
    /// policy instead of ending in ERROR; it resumes with the type a reconnect uses (append continues a
    /// recording).
    mutating func reconnectNow(type: PublishType?, at now: SessionTime) -> [PublisherAction] {
        log(now, .engine, "reconnect now: the connection is dropped and published again at once, backoff reset")
        reconnect.reset()
        var actions = cancel(.reconnect, at: now)
        let type = type ?? context.republishType
        // With reconnects off there is no attempt to count: the publish is a plain one that keeps the
        // broadcast (and its time on air) going.
        let attempt = reconnect.nextAttempt()?.number
        actions += enter(attempt.map { .waitingToReconnect(attempt: $0) } ?? .connecting(reconnectAttempt: nil), at: now)
        actions += apply(.requestKeyframe, at: now) + apply(.publish(name: state.streamName, type: type), at: now)
        return actions
    }
}
