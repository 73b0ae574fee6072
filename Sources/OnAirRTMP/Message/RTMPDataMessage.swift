/// An AMF0 data message (RTMP spec §7.1.2, message type 18): a handler name and its parameters.
///
/// Two uses matter to OnAir: `@setDataFrame("onMetaData", {...})`, which a publisher sends so the server
/// stores and forwards stream metadata (FLV spec E.5), and Red5-style `send(handler, params…)` notices
/// such as `publisherBackground("streamName=stream1")` (docs/design.md §3), which servers that relay data hand to
/// every player, who dispatch on ``handler``.
public struct RTMPDataMessage: Sendable, Equatable {
    /// Handler names with meaning to servers and players.
    public enum Handler {
        public static let setDataFrame = "@setDataFrame"
        public static let onMetaData = "onMetaData"
    }

    public var handler: String
    public var arguments: [AMF0Value]

    public init(handler: String, arguments: [AMF0Value]) {
        self.handler = handler
        self.arguments = arguments
    }

    /// `@setDataFrame("onMetaData", metadata)`: what a publisher sends (FLV spec E.5 onMetaData).
    public static func setDataFrame(metadata: AMF0Value) -> RTMPDataMessage {
        RTMPDataMessage(handler: Handler.setDataFrame, arguments: [.string(Handler.onMetaData), metadata])
    }

    /// The wire values: the handler name as an AMF0 string, then the arguments.
    public var values: [AMF0Value] { [.string(handler)] + arguments }

    /// Builds from decoded AMF0 values; `nil` when the first value is not a string.
    public init?(values: [AMF0Value]) {
        guard let handler = values.first?.stringValue else { return nil }
        self.init(handler: handler, arguments: Array(values.dropFirst()))
    }

    /// The metadata object when this is `onMetaData(...)` or `@setDataFrame("onMetaData", ...)`.
    public var metadata: AMF0Value? {
        if handler == Handler.onMetaData { return arguments.first }
        if handler == Handler.setDataFrame, arguments.first?.stringValue == Handler.onMetaData {
            return arguments.dropFirst().first
        }
        return nil
    }
}
