import OnAirControl
import OnAirCore

/// Turns what changed in a side's state since the last look into headless events: new event-log lines,
/// new toasts, and a `state` event whenever the summary the dashboard shows changes.
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
    ) -> [HeadlessEvent] {
        var events: [HeadlessEvent] = []
        for entry in log.entries(after: logSeen) {
            events.append(HeadlessEvent(time: entry.time, side: side, kind: entry.source.headlessKind, details: ["text": .string(entry.text)]))
        }
        logSeen = log.appendedCount
        for toast in toasts.toasts(after: toastsSeen) {
            events.append(HeadlessEvent(time: toast.postedAt, side: side, kind: "toast", details: ["text": .string(toast.text)]))
        }
        toastsSeen = toasts.postedCount
        if summary != lastSummary {
            events.append(HeadlessEvent(time: now, side: side, kind: "state", details: summary))
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
