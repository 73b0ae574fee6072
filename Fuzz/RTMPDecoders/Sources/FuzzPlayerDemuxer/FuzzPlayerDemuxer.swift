import FuzzDriver
import NIOCore
import OnAirCore
import OnAirRTMP

/// libFuzzer's entry point: any bytes as what a server sends a player on its stream, through the client's
/// split (`RTMPReceivedMessage.split`, which turns an aggregate into its sub-messages, as
/// `RTMPClientChannelHandler` does) and then the player's demuxer (`RTMPPlayerDemuxer`, symlinked with the two
/// OnAirNet files it needs). The input is a run of messages, each a kind byte (its value mod 5: data, video,
/// audio, command, aggregate; its value also the timestamp's top byte), a big-endian UInt16 length and that
/// many bytes of body (fewer at the end). A trap is a finding — `Int(_:)` of a metadata number was one
/// (`videodatarate` 1e300) — and so is an aggregate split other than `AggregateReference` reads it, and a
/// track whose size, rate or bitrate is negative, or whose frame rate is not finite and within 0...1000.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPlayerDemuxer(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = UnsafeBufferPointer(start: size > 0 ? data : nil, count: size)
    let types: [RTMPMessageType] = [.dataAMF0, .video, .audio, .commandAMF0, .aggregate]
    var demuxer = RTMPPlayerDemuxer()
    var position = 0
    while position + 3 <= size {
        let kind = bytes[position]
        let length = Int(bytes[position + 1]) << 8 | Int(bytes[position + 2])
        position += 3
        let body = ByteBuffer(bytes: UnsafeBufferPointer(rebasing: bytes[position..<min(size, position + length)]))
        position = min(size, position + length)
        let raw = RTMPRawMessage(chunkStreamID: 6, timestamp: UInt32(kind) << 24 | UInt32(position & 0xFFFF),
                                 typeID: types[Int(kind) % types.count].rawValue, messageStreamID: 1, payload: body)
        let received = RTMPReceivedMessage.split(raw)
        if raw.type == .aggregate {
            AggregateReference.check(received, of: raw)
        } else {
            precondition(received.count == 1 && received[0].raw == raw, "a plain message was split")
        }
        for case .message(let message, let sub) in received {
            demux(RTMPClient.Incoming(message: message, timestamp: sub.timestamp, messageStreamID: sub.messageStreamID), with: &demuxer)
        }
    }
    return 0
}

/// Hands one message to the demuxer and traps on a track out of range.
private func demux(_ incoming: RTMPClient.Incoming, with demuxer: inout RTMPPlayerDemuxer) {
    for event in demuxer.handle(incoming) {
        switch event {
        case .videoTrack(let track):
            precondition(track.width >= 0 && track.height >= 0 && track.codedWidth >= 0 && track.codedHeight >= 0, "a negative picture size")
            precondition(track.framesPerSecond.isFinite && (0...1000).contains(track.framesPerSecond), "a frame rate out of range")
            precondition(track.bitrate >= 0, "a negative bitrate")
        case .audioTrack(let track):
            // AAC's channelConfiguration is 4 bits (ISO/IEC 14496-3 Table 1.19): up to 15 as read.
            precondition(track.sampleRate >= 0 && (0...15).contains(track.channels) && track.bitrate >= 0, "an audio track out of range")
        default:
            break
        }
    }
}

/// SwiftPM points the program's `main` at `<module>_main`.
@_cdecl("FuzzPlayerDemuxer_main")
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runLibFuzzer(argc, argv, fuzzPlayerDemuxer)
}
