import OnAirCore

extension EventSource {
    /// The `kind` of a headless event for an event-log line from this source (README, "Headless output").
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
