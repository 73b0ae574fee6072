import OnAirCore

/// One thing that happened, as the process passes it around — front ends, presenters, `--log`, a
/// scenario's timeline — typed, so nothing in the process reads an event back out of its JSON.
///
/// ``headless`` is the one place an event becomes a line of the JSON Lines output
/// (docs/headless-events.schema.json); an event with no JSON form (``Kind/subscriberPlays(_:)``) is for
/// the process alone.
public struct OnAirEvent: Sendable, Equatable {
    public var time: SessionTime
    public var side: HeadlessEvent.Side
    public var kind: Kind

    public enum Kind: Sendable, Equatable {
        /// A line of the side's event log (`key`, `lifecycle`, `action`, `status`, `message`, `engine`, `error`).
        case log(EventSource, String)
        case toast(String)
        /// The side's dashboard summary, when it changed (`state`).
        case state([String: JSONValue])
        /// The side's figures, once a second (`stats`).
        case stats([String: JSONValue])
        case notice(String)
        /// `dropped`: the inputs the loop dropped, when that is the warning.
        case warning(String, dropped: Int?)
        /// A command refused, or a line that is none (`error` of the app).
        case refused(String)
        /// The link stage's new state, after `command` (a link command) or at start (`abr`: the mode).
        case link(state: String, command: String?, abr: String?)
        case started([String: JSONValue])
        case quit(reason: String)
        /// A side's last figures as the run ends (`stopped` of the app, naming the side).
        case stopped(HeadlessEvent.Side, [String: JSONValue])
        /// How many plays the subscriber has asked for since it began (every reconnect is one more):
        /// for the process alone, no JSON line.
        case subscriberPlays(Int)
        /// The publisher's status, typed, when it changed (its `state` event carries the badge's text): for
        /// the process alone, no JSON line.
        case publisherStatus(PublisherStatus)
        /// What only the JSON output reads — ABR changes, devices, tracks, metadata, a scenario's
        /// verdicts, relay checks: never read back in the process.
        case reported(kind: String, details: [String: JSONValue])
    }

    public init(time: SessionTime, side: HeadlessEvent.Side, _ kind: Kind) {
        self.time = time
        self.side = side
        self.kind = kind
    }

    /// The event as one headless line; nil for an event the process keeps to itself.
    public var headless: HeadlessEvent? {
        switch kind {
        case .log(let source, let text): event(source.headlessKind, ["text": .string(text)])
        case .toast(let text): event("toast", ["text": .string(text)])
        case .state(let summary): event("state", summary)
        case .stats(let figures): event("stats", figures)
        case .notice(let text): event("notice", ["text": .string(text)])
        case .warning(let text, let dropped):
            event("warning", dropped.map { ["text": .string(text), "dropped": .integer(Int64($0))] } ?? ["text": .string(text)])
        case .refused(let text): event("error", ["text": .string(text)])
        case .link(let state, let command, let abr):
            event("link", ["state": .string(state)].merging(
                [("command", command), ("abr", abr)].compactMap { key, value in value.map { (key, JSONValue.string($0)) } }
            ) { old, _ in old })
        case .started(let details): event("started", details)
        case .quit(let reason): event("quit", ["reason": .string(reason)])
        case .stopped(let of, let figures):
            event("stopped", figures.merging(["side": .string(of.rawValue)]) { old, _ in old })
        case .subscriberPlays, .publisherStatus: nil
        case .reported(let kind, let details): event(kind, details)
        }
    }

    private func event(_ kind: String, _ details: [String: JSONValue]) -> HeadlessEvent {
        HeadlessEvent(time: time, side: side, kind: kind, details: details)
    }
}

extension EventSource {
    /// The `kind` of a headless event for an event-log line from this source.
    var headlessKind: String {
        switch self {
        case .key: "key"
        case .lifecycle: "lifecycle"
        case .policy: "action"
        case .rtmp: "status"
        case .message: "message"
        case .engine: "engine"
        case .error: "error"
        }
    }
}
