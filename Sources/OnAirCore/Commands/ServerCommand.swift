/// One interruption from the server's side, in the words keys, stdin and scenarios share (issue 27):
/// `server-restart [D]`, `server-busy [D]`, `server-stall [D]`, `server-move`. They act on the demo's
/// embedded relay, which stands in for the ingest server a phone publishes to.
public enum ServerCommand: Sendable, Hashable {
    /// The relay drops every connection and refuses new ones for the duration, then accepts again (a
    /// server restarting for an update).
    case restart(Duration)
    /// The relay refuses publishing with `NetStream.Publish.BadName` "already publishing" for the duration,
    /// as nginx-rtmp does while it still holds a publisher that went quiet (nginx-rtmp #1152, SRS StreamBusy):
    /// the publisher meets it on its next reconnect.
    case busy(Duration)
    /// The relay stops reading from the publisher for the duration (a server stuck on its disk or CPU).
    case stall(Duration)
    /// The relay asks its clients to move (Enhanced RTMP v2 `NetConnection.Connect.ReconnectRequest`).
    case move

    /// What a duration left out means.
    public static let defaultDuration = Duration.seconds(3)
    /// The longest window: past five minutes a publisher's backoff has given up and a rehearsal is an outage.
    public static let maximumDuration = Duration.seconds(300)

    public enum ParseError: Error, Equatable, CustomStringConvertible {
        case badDuration(command: String, text: String)
        case extraArguments(String)

        public var description: String {
            switch self {
            case let .badDuration(command, text):
                "\(command): '\(text)' is not a duration between 100ms and 300s; write it like 3, 1.5s, 500ms or 2m"
            case let .extraArguments(command): "too many values after \(command)"
            }
        }
    }

    /// Reads one command line such as `server-restart 5s`; nil if the first word is not a server command.
    public static func parse(_ line: String) throws(ParseError) -> ServerCommand? {
        let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
        guard let name = words.first, ["server-restart", "server-busy", "server-stall", "server-move"].contains(name) else { return nil }
        let arguments = words.dropFirst()
        if name == "server-move" {
            guard arguments.isEmpty else { throw .extraArguments(name) }
            return .move
        }
        guard arguments.count <= 1 else { throw .extraArguments(name) }
        let duration = try arguments.first.map { (text) throws(ParseError) in try Self.duration(text, command: name) } ?? defaultDuration
        switch name {
        case "server-restart": return .restart(duration)
        case "server-busy": return .busy(duration)
        default: return .stall(duration)
        }
    }

    /// `3`, `1.5`, `3s`, `500ms`, `2m` (bare numbers are seconds, as on the command line), within 100 ms…300 s.
    static func duration(_ text: String, command: String) throws(ParseError) -> Duration {
        guard let duration = NumberText.duration(text, bareNumbersAreSeconds: true, maximum: maximumDuration),
              duration >= .milliseconds(100)
        else { throw .badDuration(command: command, text: text) }
        return duration
    }

    /// The command's first word: `server-restart`, …
    public var word: String {
        switch self {
        case .restart: "server-restart"
        case .busy: "server-busy"
        case .stall: "server-stall"
        case .move: "server-move"
        }
    }

    /// The window, for the commands that have one.
    public var duration: Duration? {
        switch self {
        case .restart(let duration), .busy(let duration), .stall(let duration): duration
        case .move: nil
        }
    }

    /// The whole command as typed, for logs: `server-restart 3s`.
    public var text: String {
        duration.map { "\(word) \(NumberText.describe($0))" } ?? word
    }

    /// Why it would do nothing: the server commands act on the embedded relay, which only `onair demo`
    /// without `--server` runs.
    public func refusal(hasRelay: Bool) -> String? {
        hasRelay ? nil : "\(word): no embedded relay here (only onair demo without --server runs one)"
    }
}
