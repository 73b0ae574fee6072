import NIOCore
import OnAirRTMP

/// Per-connection limits (GitHub issue 14): the refusals and deadlines that close a connection, each
/// reported as a `rejected` event with its reason. The counting happens where the commands are handled;
/// this is where a connection is closed for them.
extension RelayConnectionHandler {
    /// Closes the connection for a limit, reported as a `rejected` event with the reason.
    func reject(_ reason: RelayEvent.ConnectionRejection) {
        guard context != nil else { return }
        registry.report(.connectionRejected(connection: id, remote: remote, reason: reason))
        closeAndIgnore()
    }

    /// Called by the registry's tick: closes a connection idle since `connect`, or one with a message that
    /// has been incomplete too long.
    func checkDeadlines(now: NIODeadline) {
        guard context != nil else { return }
        let configuration = registry.configuration
        if let timeout = configuration.connectIdleTimeout, let idleSince, now - idleSince > timeout {
            reject(.idleAfterConnect(seconds: Self.seconds(timeout)))
            return
        }
        guard let serial = decoder.oldestPartialMessage else {
            oldestPartial = nil
            return
        }
        guard let oldest = oldestPartial, oldest.serial == serial else {
            oldestPartial = (serial, now)
            return
        }
        // A message left unfinished because the relay stopped reading (`server-stall`) is the relay's doing.
        if now - max(oldest.since, registry.stallingUntil ?? oldest.since) > configuration.incompleteMessageTimeout {
            reject(.incompleteMessage(seconds: Self.seconds(configuration.incompleteMessageTimeout)))
        }
    }

    static func seconds(_ amount: TimeAmount) -> Double { Double(amount.nanoseconds) / 1_000_000_000 }

    /// Whether the connection now neither publishes nor plays (the idle clock runs only after `connect`).
    func updateIdle() {
        guard connected else { return }
        if publishing == nil && playing.isEmpty {
            if idleSince == nil { idleSince = .now() }
        } else {
            idleSince = nil
        }
    }

    /// Takes one command or ping from the peer's budget; false (the connection is then closed) when it
    /// sends them faster than ``RelayConfiguration/requestRate`` beyond a burst — a flood whose answers cost
    /// the relay's one event loop what every player needs (GitHub issue 14 item 3).
    func spendRequest() -> Bool {
        let now = NIODeadline.now()
        let elapsed = Double((now - requestsRefilled).nanoseconds) / 1_000_000_000
        requestsRefilled = now
        requestTokens = min(Double(RelayConfiguration.requestBurst), requestTokens + elapsed * RelayConfiguration.requestRate)
        guard requestTokens >= 1 else {
            reject(.requestFlood(perSecond: RelayConfiguration.requestRate))
            return false
        }
        requestTokens -= 1
        return true
    }
}
