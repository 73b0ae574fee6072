import OnAirCore

/// An AMF0 command message (RTMP spec §7.1.1, §7.2): name, transaction ID, command object, arguments.
///
/// The static builders produce exactly the sequences a publisher and a player send (§7.2.1.1 connect,
/// §7.2.1.3 createStream, §7.2.2.1 play, §7.2.2.6 publish, §7.2.2.3 deleteStream) plus the FMLE-era
/// `releaseStream` / `FCPublish` / `FCUnpublish` that nginx-rtmp, Wowza and Red5 expect from encoders.
public struct RTMPCommand: Sendable, Equatable {
    /// Command names with the spellings used on the wire.
    public enum Name {
        public static let connect = "connect"
        public static let releaseStream = "releaseStream"
        public static let fcPublish = "FCPublish"
        public static let fcUnpublish = "FCUnpublish"
        public static let createStream = "createStream"
        public static let deleteStream = "deleteStream"
        public static let publish = "publish"
        public static let play = "play"
        public static let result = "_result"
        public static let error = "_error"
        public static let onStatus = "onStatus"
    }

    /// Values of `connect`'s command object fields (RTMP spec §7.2.1.1, Table "connect" fields).
    public enum ConnectField {
        /// `capabilities`: 15, what Flash Player and FFmpeg send.
        public static let capabilities = 15.0
        /// `audioCodecs`: SUPPORT_SND_* bits for every codec up to AAC and Speex (0x0FFF is "all").
        public static let audioCodecs = Double(0x0FFF)
        /// `videoCodecs`: SUPPORT_VID_* bits up to H.264 (0x00FF is "all").
        public static let videoCodecs = Double(0x00FF)
        /// `videoFunction`: SUPPORT_VID_CLIENT_SEEK.
        public static let videoFunction = 1.0
        /// `objectEncoding`: 0 selects AMF0.
        public static let objectEncodingAMF0 = 0.0
        /// `capsEx` (Enhanced RTMP v2): the Reconnect bit, 0x01 — OnAir honours
        /// `NetConnection.Connect.ReconnectRequest`.
        public static let capsExReconnect = 1.0
    }

    public var name: String
    /// Matches a response (`_result`/`_error`) to its request; 0 for notifications (§7.2).
    public var transactionID: Double
    /// The command object; `.null` when the command has none.
    public var commandObject: AMF0Value
    public var arguments: [AMF0Value]

    public init(name: String, transactionID: Double, commandObject: AMF0Value = .null, arguments: [AMF0Value] = []) {
        self.name = name
        self.transactionID = transactionID
        self.commandObject = commandObject
        self.arguments = arguments
    }

    /// Builds from decoded AMF0 values: name, transaction ID, then the command object and arguments.
    public init?(values: [AMF0Value]) {
        guard let name = values.first?.stringValue else { return nil }
        self.name = name
        self.transactionID = values.dropFirst().first?.numberValue ?? 0
        self.commandObject = values.dropFirst(2).first ?? .null
        self.arguments = Array(values.dropFirst(3))
    }

    /// The wire values in order.
    public var values: [AMF0Value] {
        [.string(name), .number(transactionID), commandObject] + arguments
    }

    /// The status info of `onStatus` (or of `_error`, whose argument is an info object too).
    public var status: RTMPStatus? {
        arguments.lazy.compactMap(RTMPStatus.init(info:)).first
    }

    /// Where a `NetConnection.Connect.ReconnectRequest` asks to go: its info object's `tcUrl`, nil when it
    /// names none (reconnect to the same server). Nil for any other command.
    public var reconnectTarget: (tcUrl: String?, description: String)? {
        guard name == Name.onStatus, let status, status.code == .reconnectRequest else { return nil }
        let tcUrl = arguments.lazy.compactMap { $0["tcUrl"]?.stringValue }.first
        return (tcUrl.flatMap { $0.isEmpty ? nil : $0 }, status.description)
    }

    /// `connect` (§7.2.1.1) with the fields nginx-rtmp, Wowza and Red5 read.
    public static func connect(transactionID: Double = 1, app: String, tcURL: String, flashVersion: String = "FMLE/3.0 (compatible; OnAir)") -> RTMPCommand {
        RTMPCommand(name: Name.connect, transactionID: transactionID, commandObject: .object([
            "app": .string(app),
            "type": .string("nonprivate"),
            "flashVer": .string(flashVersion),
            "tcUrl": .string(tcURL),
            "fpad": .boolean(false),
            "capabilities": .number(ConnectField.capabilities),
            "audioCodecs": .number(ConnectField.audioCodecs),
            "videoCodecs": .number(ConnectField.videoCodecs),
            "videoFunction": .number(ConnectField.videoFunction),
            "objectEncoding": .number(ConnectField.objectEncodingAMF0),
            "capsEx": .number(ConnectField.capsExReconnect),
        ]))
    }

    public static func releaseStream(transactionID: Double, name: String) -> RTMPCommand {
        RTMPCommand(name: Name.releaseStream, transactionID: transactionID, arguments: [.string(name)])
    }

    public static func fcPublish(transactionID: Double, name: String) -> RTMPCommand {
        RTMPCommand(name: Name.fcPublish, transactionID: transactionID, arguments: [.string(name)])
    }

    public static func fcUnpublish(transactionID: Double, name: String) -> RTMPCommand {
        RTMPCommand(name: Name.fcUnpublish, transactionID: transactionID, arguments: [.string(name)])
    }

    /// `createStream` (§7.2.1.3); the `_result` carries the new message stream ID.
    public static func createStream(transactionID: Double) -> RTMPCommand {
        RTMPCommand(name: Name.createStream, transactionID: transactionID)
    }

    /// `deleteStream(streamID)` (§7.2.2.3).
    public static func deleteStream(transactionID: Double = 0, streamID: UInt32) -> RTMPCommand {
        RTMPCommand(name: Name.deleteStream, transactionID: transactionID, arguments: [.number(Double(streamID))])
    }

    /// `publish(name, type)` (§7.2.2.6), sent on the stream from `createStream`.
    public static func publish(transactionID: Double = 0, name: String, type: PublishType) -> RTMPCommand {
        RTMPCommand(name: Name.publish, transactionID: transactionID, arguments: [.string(name), .string(type.rawValue)])
    }

    /// `play(name, start)` (§7.2.2.1); start -2 means "live if there is one, else recorded".
    public static func play(transactionID: Double = 0, name: String, start: Double = -2) -> RTMPCommand {
        RTMPCommand(name: Name.play, transactionID: transactionID, arguments: [.string(name), .number(start)])
    }

    /// A `_result` answer (§7.2.1.2), as a server sends it.
    public static func result(transactionID: Double, commandObject: AMF0Value = .null, arguments: [AMF0Value] = []) -> RTMPCommand {
        RTMPCommand(name: Name.result, transactionID: transactionID, commandObject: commandObject, arguments: arguments)
    }

    /// An `_error` answer carrying a status info object.
    public static func error(transactionID: Double, status: RTMPStatus) -> RTMPCommand {
        RTMPCommand(name: Name.error, transactionID: transactionID, arguments: [status.info])
    }

    /// `onStatus(null, info)` (§7.2.2), as a server sends it on a stream.
    public static func onStatus(_ status: RTMPStatus) -> RTMPCommand {
        RTMPCommand(name: Name.onStatus, transactionID: 0, arguments: [status.info])
    }
}
