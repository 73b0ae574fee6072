/// Where an event-log line came from, so the console can colour it and tests can filter it.
public enum EventSource: String, Sendable, Equatable, CaseIterable, Codable {
    /// An operator key (and a refusal of a key not allowed now).
    case key
    /// A simulated iOS notification: willResignActive, didBecomeActive, …
    case lifecycle
    /// What a policy or the subscriber logic decided: pauseVideo, stop, publish, toast, …
    case policy
    /// An RTMP status code from the server (NetStream.Publish.Start, …UnpublishNotify, …).
    case rtmp
    /// A data message sent or received with `send()` (publisherBackground, …).
    case message
    /// The capture-and-encode engine or the network: devices, drops, reconnects.
    case engine
    /// A failure.
    case error
}

/// One line of the event log, stamped to the millisecond.
public struct EventLogEntry: Sendable, Equatable, Codable {
    public var time: SessionTime
    public var source: EventSource
    public var text: String

    public init(time: SessionTime, source: EventSource, text: String) {
        self.time = time
        self.source = source
        self.text = text
    }
}

/// The event log: the newest entries, oldest first (500 unless another capacity is given).
public typealias EventLog = BoundedHistory<EventLogEntry>

extension BoundedHistory where Element == EventLogEntry {
    public init() {
        self.init(capacity: 500)
    }

    public var entries: [EventLogEntry] { elements }

    public mutating func append(_ time: SessionTime, _ source: EventSource, _ text: String) {
        append(EventLogEntry(time: time, source: source, text: text))
    }

    /// The entries appended after the log had `appendedCount` entries (those still kept).
    public func entries(after appendedCount: Int) -> ArraySlice<EventLogEntry> { elements(after: appendedCount) }
}
