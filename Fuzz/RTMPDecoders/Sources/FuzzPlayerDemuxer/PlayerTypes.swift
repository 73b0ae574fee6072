import NIOCore
import OnAirCore
import OnAirRTMP

// The two OnAirNet types the player's demuxer speaks, without the networking they live beside
// (`RTMPPlayer.swift`, `RTMPClient.swift` import NIOPosix and NIOSSL). They mirror the real ones: a case
// the demuxer makes that is missing here fails to compile, so they cannot drift apart silently.

/// `RTMPPlayer`'s events (Sources/OnAirNet/RTMPPlayer.swift).
enum RTMPPlayer {
    enum Event: Sendable, Equatable {
        case status(RTMPStatus)
        case streamBegin
        case streamEOF
        case streamDry
        case metadata([String: MetadataValue])
        case message(handler: String, arguments: [MetadataValue])
        case videoTrack(VideoTrackDescription)
        case audioTrack(AudioTrackDescription)
        case packet(EncodedPacket)
        case undecodable(kind: EncodedPacket.Kind, bytes: Int, timestamp: Int64)
        case notice(String)
    }
}

/// `RTMPClient.Incoming` (Sources/OnAirNet/RTMPClient.swift).
enum RTMPClient {
    struct Incoming: Sendable {
        var message: RTMPMessage
        var timestamp: UInt32
        var messageStreamID: UInt32
    }
}
