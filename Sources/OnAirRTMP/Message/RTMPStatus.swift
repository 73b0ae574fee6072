/// The info object of an `onStatus` command (RTMP spec §7.2.2): what a server says about a stream.
///
/// Servers send many codes beyond the ones named in ``Code``; all of them are kept as text so the console
/// can show exactly what the server said.
public struct RTMPStatus: Sendable, Equatable, CustomStringConvertible {
    /// A status code such as `NetStream.Publish.Start`; the well-known ones are static members.
    public struct Code: RawRepresentable, Sendable, Hashable, ExpressibleByStringLiteral, CustomStringConvertible {
        public var rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public init(stringLiteral value: String) { self.rawValue = value }
        public var description: String { rawValue }

        public static let connectSuccess: Code = "NetConnection.Connect.Success"
        public static let connectRejected: Code = "NetConnection.Connect.Rejected"
        public static let connectClosed: Code = "NetConnection.Connect.Closed"
        public static let publishStart: Code = "NetStream.Publish.Start"
        public static let publishBadName: Code = "NetStream.Publish.BadName"
        public static let publishIdle: Code = "NetStream.Publish.Idle"
        public static let unpublishSuccess: Code = "NetStream.Unpublish.Success"
        public static let playStart: Code = "NetStream.Play.Start"
        public static let playReset: Code = "NetStream.Play.Reset"
        public static let playStop: Code = "NetStream.Play.Stop"
        public static let playStreamNotFound: Code = "NetStream.Play.StreamNotFound"
        public static let playPublishNotify: Code = "NetStream.Play.PublishNotify"
        public static let playUnpublishNotify: Code = "NetStream.Play.UnpublishNotify"
        public static let playFailed: Code = "NetStream.Play.Failed"
        /// Enhanced RTMP v2: the server asks the client to reconnect, to the `tcUrl` of the info object when
        /// it names one, else to the same server (for updates and load balancing).
        public static let reconnectRequest: Code = "NetConnection.Connect.ReconnectRequest"
    }

    /// `status`, `warning` or `error` (§7.2.2).
    public enum Level: String, Sendable, Equatable {
        case status
        case warning
        case error
    }

    public var code: Code
    public var level: Level
    public var description: String

    public init(code: Code, level: Level, description: String = "") {
        self.code = code
        self.level = level
        self.description = description
    }

    /// Reads `code`, `level` and `description` from an info object; `nil` without a code.
    public init?(info: AMF0Value) {
        guard let code = info["code"]?.stringValue else { return nil }
        self.code = Code(rawValue: code)
        self.level = info["level"]?.stringValue.flatMap(Level.init(rawValue:)) ?? .status
        self.description = info["description"]?.stringValue ?? ""
    }

    /// The info object as sent on the wire.
    public var info: AMF0Value {
        .object(["level": .string(level.rawValue), "code": .string(code.rawValue), "description": .string(description)])
    }
}
