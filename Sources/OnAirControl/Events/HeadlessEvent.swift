import OnAirCore

/// One line of headless output (`--headless`): a JSON object with `time`, `side`, `kind` and `details`.
/// Made only by `OnAirEvent.headless`; the process passes `OnAirEvent`s and never decodes one of these.
///
/// The schema is docs/headless-events.schema.json, checked by tests; keep the two in step.
public struct HeadlessEvent: Sendable, Equatable, Encodable {
    /// Which part of OnAir speaks.
    public enum Side: String, Sendable, Equatable, Encodable, CaseIterable {
        case publisher
        case subscriber
        case relay
        case app
    }

    /// Milliseconds since the front end started.
    public var time: Int64
    public var side: Side
    /// What happened, in lowerCamelCase: `lifecycle`, `action`, `status`, `message`, `state`, `stats`, `error`, …
    public var kind: String
    public var details: [String: JSONValue]

    public init(time: SessionTime, side: Side, kind: String, details: [String: JSONValue] = [:]) {
        self.time = time.milliseconds
        self.side = side
        self.kind = kind
        self.details = details
    }
}
