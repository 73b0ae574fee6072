import OnAirRTMP

/// The `onStatus` info objects the relay sends (RTMP spec §7.2.2), with the codes and wording nginx-rtmp
/// and Red5 use, so stock players (FFmpeg, librtmp, GStreamer) and OnAir's own react as they do there.
enum RelayStatus {
    /// Refusal of a publisher without the right key (Wowza's and Red5's code for an authentication refusal).
    static let publishRejected: RTMPStatus.Code = "NetStream.Publish.Rejected"

    static func publishStart(_ name: RelayStreamName) -> RTMPStatus {
        RTMPStatus(code: .publishStart, level: .status, description: "\(name) is now published")
    }

    static func unpublishSuccess(_ name: RelayStreamName) -> RTMPStatus {
        RTMPStatus(code: .unpublishSuccess, level: .status, description: "\(name) is now unpublished")
    }

    static func badName(_ description: String) -> RTMPStatus {
        RTMPStatus(code: .publishBadName, level: .error, description: description)
    }

    static func rejected(_ description: String) -> RTMPStatus {
        RTMPStatus(code: publishRejected, level: .error, description: description)
    }

    static func playReset(_ name: RelayStreamName) -> RTMPStatus {
        RTMPStatus(code: .playReset, level: .status, description: "Playing and resetting \(name)")
    }

    static func playStart(_ name: RelayStreamName) -> RTMPStatus {
        RTMPStatus(code: .playStart, level: .status, description: "Started playing \(name)")
    }

    static func streamNotFound(_ description: String) -> RTMPStatus {
        RTMPStatus(code: .playStreamNotFound, level: .error, description: description)
    }

    static func publishNotify(_ name: RelayStreamName) -> RTMPStatus {
        RTMPStatus(code: .playPublishNotify, level: .status, description: "\(name) is now published")
    }

    static func unpublishNotify(_ name: RelayStreamName) -> RTMPStatus {
        RTMPStatus(code: .playUnpublishNotify, level: .status, description: "\(name) is now unpublished")
    }

    /// `connect`'s `_result` (RTMP spec §7.2.1.2): server properties, then the info object with
    /// `objectEncoding` 0 (AMF0), as FMS, Red5 and nginx-rtmp answer.
    static func connectResult(transactionID: Double) -> RTMPCommand {
        .result(
            transactionID: transactionID,
            commandObject: .object(["fmsVer": .string("FMS/3,0,1,123"), "capabilities": .number(31)]),
            arguments: [.object([
                "level": .string(RTMPStatus.Level.status.rawValue),
                "code": .string(RTMPStatus.Code.connectSuccess.rawValue),
                "description": .string("Connection succeeded."),
                "objectEncoding": .number(0),
            ])])
    }
}
