import OnAirControl
import OnAirCore

/// Turns what changed in a side's state since the last look into events: new event-log lines, new
/// toasts, and a `state` event whenever the summary the dashboard shows changes.
///
/// Diffing state after each loop turn (rather than emitting from inside the controllers) keeps one source
/// of truth: the JSON a script sees is exactly what the console would draw.
public struct HeadlessReporter: Sendable {
    public let side: HeadlessEvent.Side
    private var logSeen = 0
    private var toastsSeen = 0
    private var lastSummary: [String: JSONValue]?

    public init(side: HeadlessEvent.Side) {
        self.side = side
    }

    /// Events for what is new in `log`, `toasts` and `summary` at `now`.
    public mutating func report(
        log: EventLog,
        toasts: ToastQueue,
        summary: [String: JSONValue],
        at now: SessionTime
    ) -> [OnAirEvent] {
        var events: [OnAirEvent] = []
        for entry in log.entries(after: logSeen) {
            events.append(OnAirEvent(time: entry.time, side: side, .log(entry.source, entry.text)))
        }
        logSeen = log.appendedCount
        for toast in toasts.toasts(after: toastsSeen) {
            events.append(OnAirEvent(time: toast.postedAt, side: side, .toast(toast.text)))
        }
        toastsSeen = toasts.postedCount
        if summary != lastSummary {
            events.append(OnAirEvent(time: now, side: side, .state(summary)))
            lastSummary = summary
        }
        return events
    }
}

extension PublisherAppState {
    /// The publisher's `state` event details.
    public var headlessSummary: [String: JSONValue] {
        [
            "status": .string(badge),
            "lifecycle": .string(lifecycle.label),
            "policy": .string(policy.rawValue),
            "publishType": .string(publishType.rawValue),
            "pauseVideo": .bool(pauseVideo),
            "pauseAudio": .bool(pauseAudio),
            "tapArmed": .bool(tapArmed),
            "stream": .string(Redaction.streamName(streamName)),
        ]
    }
}

extension SubscriberAppState {
    /// The subscriber's `state` event details.
    public var headlessSummary: [String: JSONValue] {
        [
            "connection": .string(connection.label),
            "lifecycle": .string(lifecycle.label),
            "publisherIsInBackground": .bool(publisherIsInBackground),
            "publisherIsDisconnected": .bool(publisherIsDisconnected),
            "renderActive": .bool(renderActive),
            "reconnectAttempts": .integer(Int64(reconnectAttempts)),
            "stream": .string(Redaction.streamName(streamName)),
        ]
    }
}
