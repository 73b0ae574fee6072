import NIOCore
import OnAirCore
import OnAirRTMP

/// Turns the messages a player receives into ``RTMPPlayer/Event``s: a value-type state machine, so that
/// the dispatch rules are testable without a network.
///
/// It remembers what later messages need: the NAL length size from the AVC sequence header
/// (ISO/IEC 14496-15 §5.2.4.1) and the rates from `onMetaData` (FLV spec E.5). The picture size comes
/// from the SPS itself, falling back to the metadata.
struct RTMPPlayerDemuxer: Sendable {
    private var nalLengthSize = 4
    private var metadata: AMF0Value?

    /// Events for one incoming message on the playing stream.
    mutating func handle(_ incoming: RTMPClient.Incoming) -> [RTMPPlayer.Event] {
        let timestamp = Int64(incoming.timestamp)
        switch incoming.message {
        case .command(let command) where command.name == RTMPCommand.Name.onStatus:
            return command.status.map { [.status($0)] } ?? []
        case .userControl(.streamBegin):
            return [.streamBegin]
        case .userControl(.streamEOF):
            return [.streamEOF]
        case .userControl(.streamDry):
            return [.streamDry]
        case .data(let data):
            if let metadata = data.metadata {
                self.metadata = metadata
                return [.metadata(metadata)]
            }
            return [.data(data)]
        case .video(let body):
            return video(body, timestamp: timestamp)
        case .audio(let body):
            return audio(body, timestamp: timestamp)
        default:
            return []
        }
    }

    private mutating func video(_ body: ByteBuffer, timestamp: Int64) -> [RTMPPlayer.Event] {
        guard let tag = try? FLVVideoTag(parsing: body) else { return [] }
        switch tag.packetType {
        case .sequenceHeader:
            guard let record = try? AVCDecoderConfigurationRecord(parsing: tag.body) else { return [] }
            nalLengthSize = record.nalLengthSize
            // The SPS is authoritative for the picture size; metadata fills in what the SPS lacks.
            let sps = record.sequenceParameterSets.first.flatMap(H264SequenceParameterSet.init)
            let track = VideoTrackDescription(
                width: sps?.width ?? Int(metadata?[FLVMetadata.Key.width]?.numberValue ?? 0),
                height: sps?.height ?? Int(metadata?[FLVMetadata.Key.height]?.numberValue ?? 0),
                framesPerSecond: metadata?[FLVMetadata.Key.frameRate]?.numberValue ?? metadata?["fps"]?.numberValue ?? 0,
                bitrate: Int((metadata?[FLVMetadata.Key.videoDataRate]?.numberValue ?? 0) * 1000),
                sequenceParameterSets: record.sequenceParameterSets,
                pictureParameterSets: record.pictureParameterSets)
            return [.videoTrack(track)]
        case .nalu:
            guard let packet = (try? tag.encodedPacket(timestamp: timestamp, nalLengthSize: nalLengthSize)) ?? nil else { return [] }
            return [.packet(packet)]
        case .endOfSequence:
            return []
        }
    }

    private func audio(_ body: ByteBuffer, timestamp: Int64) -> [RTMPPlayer.Event] {
        guard let tag = try? FLVAudioTag(parsing: body) else { return [] }
        switch tag.packetType {
        case .sequenceHeader:
            let config = Array(tag.body.readableBytesView)
            let parsed = AACAudioSpecificConfig(config)
            let track = AudioTrackDescription(
                sampleRate: parsed?.sampleRate ?? 0, channels: parsed?.channels ?? 0,
                bitrate: Int((metadata?[FLVMetadata.Key.audioDataRate]?.numberValue ?? 0) * 1000),
                audioSpecificConfig: config)
            return [.audioTrack(track)]
        case .raw:
            return tag.encodedPacket(timestamp: timestamp).map { [.packet($0)] } ?? []
        }
    }
}
