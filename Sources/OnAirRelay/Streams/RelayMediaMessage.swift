import NIOCore
import OnAirRTMP

/// One audio, video or data message from a publisher, classified once on arrival so that the cache,
/// the recorder and every player queue decide from the same facts.
///
/// The payload is kept as received (an FLV tag body, FLV spec E.4), so players get the publisher's
/// bytes verbatim — except `@setDataFrame("onMetaData", …)`, which servers deliver to players as
/// `onMetaData(…)` (what Red5, Wowza and nginx-rtmp do; FLV spec E.5).
struct RelayMediaMessage: Sendable {
    enum Kind: Sendable, Equatable {
        case audio
        case video
        /// `onMetaData`, with the payload already rewritten to start with "onMetaData".
        case metadata
        /// `@clearDataFrame`: forget the cached metadata.
        case clearMetadata
        /// Any other AMF0 data message (e.g. `publisherBackground`), relayed byte for byte.
        case data
    }

    /// Handler names with meaning to the relay.
    enum Handler {
        static let clearDataFrame = "@clearDataFrame"
    }

    var kind: Kind
    var typeID: UInt8
    var timestamp: UInt32
    var payload: ByteBuffer
    /// A video keyframe (FLV spec E.4.3.1 FrameType 1), not a sequence header.
    var isKeyframe = false
    /// AVC/AAC sequence header (AVCPacketType / AACPacketType 0).
    var isSequenceHeader = false

    /// Classifies `raw`; `nil` for messages the relay does not forward (commands, control, AMF3 data
    /// that does not decode).
    init?(_ raw: RTMPRawMessage) {
        guard let type = raw.type else { return nil }
        typeID = raw.typeID
        timestamp = raw.timestamp
        payload = raw.payload
        switch type {
        case .audio:
            kind = .audio
            let format = payload.getInteger(at: payload.readerIndex, as: UInt8.self) ?? 0
            let packet = payload.getInteger(at: payload.readerIndex + 1, as: UInt8.self)
            isSequenceHeader = format >> 4 == FLVAudioTag.SoundFormat.aac.rawValue
                && packet == FLVAudioTag.AACPacketType.sequenceHeader.rawValue
        case .video:
            kind = .video
            let first = payload.getInteger(at: payload.readerIndex, as: UInt8.self) ?? 0
            let packet = payload.getInteger(at: payload.readerIndex + 1, as: UInt8.self)
            let frameType = (first >> 4) & 0x07        // top bit is Enhanced RTMP's IsExHeader
            isSequenceHeader = first & 0x0F == FLVVideoTag.CodecID.avc.rawValue
                && packet == FLVVideoTag.AVCPacketType.sequenceHeader.rawValue
            isKeyframe = !isSequenceHeader && frameType == FLVVideoTag.FrameType.keyframe.rawValue
        case .dataAMF0:
            var body = payload
            guard let handler = (try? AMF0Decoder().decode(from: &body))??.stringValue else { return nil }
            switch handler {
            case RTMPDataMessage.Handler.setDataFrame:
                var rest = body
                guard (try? AMF0Decoder().decode(from: &rest))??.stringValue == RTMPDataMessage.Handler.onMetaData else {
                    kind = .data
                    return
                }
                kind = .metadata
                var rewritten = ByteBuffer()
                AMF0Encoder.encode(.string(RTMPDataMessage.Handler.onMetaData), into: &rewritten)
                rewritten.writeImmutableBuffer(rest)
                payload = rewritten
            case RTMPDataMessage.Handler.onMetaData:
                kind = .metadata
            case Handler.clearDataFrame:
                kind = .clearMetadata
            default:
                kind = .data
            }
        case .dataAMF3:
            kind = .data
        default:
            return nil
        }
    }

    /// The timestamp players get: `onMetaData` goes out at 0, as nginx-rtmp sends it (GitHub issue 18
    /// item 6: GStreamer publishes it at 2410 ms, and ffmpeg then read it as an extra "Subtitle: text"
    /// stream); everything else keeps the publisher's. Recordings keep the publisher's timestamp.
    var playerTimestamp: UInt32 { kind == .metadata ? 0 : timestamp }

    /// Where a player may start decoding: a video keyframe, or any audio frame of a stream without video.
    func isRandomAccessPoint(streamHasVideo: Bool) -> Bool {
        switch kind {
        case .video: isKeyframe
        case .audio: !streamHasVideo
        default: true
        }
    }
}
