import NIOCore
import OnAirCore
import OnAirRTMP

// The OnAirNet type the player's demuxer speaks, without the networking it lives beside (`RTMPPlayer.swift`
// imports NIOPosix and NIOSSL). It mirrors the real one: a case the demuxer makes that is missing here fails
// to compile, so they cannot drift apart silently.

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

/// `RTMPClient`'s namespace; its `Incoming` is the shipped file (`RTMPClient+Incoming.swift`, a symlink).
enum RTMPClient {}
