/// RTMP message type IDs with the spec's raw values (RTMP spec §5.4, §6.2, §7.1).
public enum RTMPMessageType: UInt8, Sendable, CaseIterable {
    case setChunkSize = 1
    case abort = 2
    case acknowledgement = 3
    case userControl = 4
    case windowAcknowledgementSize = 5
    case setPeerBandwidth = 6
    case audio = 8
    case video = 9
    case dataAMF3 = 15
    case sharedObjectAMF3 = 16
    case commandAMF3 = 17
    case dataAMF0 = 18
    case sharedObjectAMF0 = 19
    case commandAMF0 = 20
    case aggregate = 22

    /// Protocol control messages travel on chunk stream 2 and message stream 0 (§5.4).
    public var isProtocolControl: Bool {
        switch self {
        case .setChunkSize, .abort, .acknowledgement, .windowAcknowledgementSize, .setPeerBandwidth: true
        default: false
        }
    }
}
