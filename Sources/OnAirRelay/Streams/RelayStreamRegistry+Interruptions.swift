import NIOCore
import OnAirCore

/// The operator's interruptions from the server's side (issue 27): the embedded relay restarts, holds a
/// stream as "already publishing", or stops reading from its publishers, for a window, so a phone's
/// reconnects are rehearsed against the server and not only the link.
extension RelayStreamRegistry {
    /// Starts `command`'s window now; the relay reports the start and the end as ``RelayEvent/serverInterruption(action:milliseconds:ended:)``.
    func interrupt(_ command: ServerCommand) {
        let duration = command.duration ?? .zero
        let amount = TimeAmount.nanoseconds(Int64(duration.wholeMilliseconds) * 1_000_000)
        let until = NIODeadline.now() + amount
        let action: String
        switch command {
        case .restart:
            action = "restart"
            refusingUntil = until
            // Every connection goes, as when the process stops: publishers and players see the socket close.
            for handler in openConnections { handler.close() }
        case .busy:
            action = "busy"
            busyUntil = until
        case .stall:
            action = "stall"
            stallingUntil = until
            for handler in openConnections where handler.publishing != nil { handler.stopReading(for: amount) }
        case .move:
            action = "move"
            for handler in openConnections where handler.connected {
                if handler.publishing != nil { movingPublishers.insert(ObjectIdentifier(handler)) }
                handler.sendReconnectRequest(tcUrl: moveTarget.map { "\($0)/\(handler.application)" })
            }
        }
        flushDirty()        // nothing read will flush what was written outside a read
        emit(.serverInterruption(action: action, milliseconds: Int(duration.wholeMilliseconds), ended: false))
        guard duration > .zero else { return }
        eventLoop.assumeIsolated().scheduleTask(in: amount) { [self] in
            emit(.serverInterruption(action: action, milliseconds: Int(duration.wholeMilliseconds), ended: true))
        }
    }
}
