import NIOCore
import OnAirCore
import OnAirRTMP

/// Turns the messages a player receives into ``RTMPPlayer/Event``s: a value-type state machine, so that
/// the dispatch rules are testable without a network.
///
/// It remembers what later messages need: the NAL length size from the AVC sequence header
/// (ISO/IEC 14496-15 §5.2.4.1) and the rates from `onMetaData` (FLV spec E.5). The picture size comes
/// from the SPS itself, falling back to the metadata. Audio other than AAC (MP3, PCM, G.711) has no sequence
/// header: its track is announced from the first tag's format byte, and again when that byte changes.
/// A codec OnAir does not decode is one `notice`, once per codec, instead of silence.
struct RTMPPlayerDemuxer: Sendable {
    private var nalLengthSize = 4
    private var metadata: AMF0Value?
    /// The format byte of the last non-AAC audio track announced, so a track is announced once.
    private var announcedAudioFormat: UInt8?
    /// The codecs already named in a notice, so a stream of them is one line, not one per tag.
    private var unsupportedAudio: String?
    private var unsupportedVideo: String?
    /// The last in-band SPS refusal told, so a stream of them is one notice.
    private var refusedInBand: String?

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
                return [.metadata(metadata.metadataFields)]
            }
            return [.message(handler: data.handler, arguments: data.arguments.map(\.metadataValue))]
        case .video(let body):
            return video(body, timestamp: timestamp)
        case .audio(let body):
            return audio(body, timestamp: timestamp)
        default:
            return []
        }
    }

    private mutating func video(_ body: ByteBuffer, timestamp: Int64) -> [RTMPPlayer.Event] {
        let tag: FLVVideoTag
        do {
            tag = try FLVVideoTag(parsing: body)
        } catch FLVVideoTag.Error.unsupportedCodec {
            return unsupported(video: body, timestamp: timestamp)
        } catch {
            return []
        }
        switch tag.packetType {
        case .sequenceHeader:
            guard let record = try? AVCDecoderConfigurationRecord(parsing: tag.body) else { return [] }
            nalLengthSize = record.nalLengthSize
            // The SPS is authoritative for the picture size; metadata fills in what the SPS lacks.
            let sps = record.sequenceParameterSets.first.flatMap(H264SequenceParameterSet.init)
            var track = VideoTrackDescription(
                width: sps?.width ?? Self.metadataCount(metadata?[FLVMetadata.Key.width]?.numberValue),
                height: sps?.height ?? Self.metadataCount(metadata?[FLVMetadata.Key.height]?.numberValue),
                framesPerSecond: Self.metadataRate(metadata?[FLVMetadata.Key.frameRate]?.numberValue ?? metadata?["fps"]?.numberValue),
                bitrate: Self.metadataCount(metadata?[FLVMetadata.Key.videoDataRate]?.numberValue, scale: 1000),
                sequenceParameterSets: record.sequenceParameterSets,
                pictureParameterSets: record.pictureParameterSets)
            // Every SPS of the record counts (two with the same id: the decoder keeps the last), at its
            // coded size, which is what frames are allocated at.
            let coded = record.sequenceParameterSets.compactMap(H264SequenceParameterSet.init)
            track.codedWidth = coded.map(\.codedWidth).max() ?? 0
            track.codedHeight = coded.map(\.codedHeight).max() ?? 0
            return [.videoTrack(track)]
        case .nalu:
            guard let packet = (try? tag.encodedPacket(timestamp: timestamp, nalLengthSize: nalLengthSize)) ?? nil else { return [] }
            if let refusal = oversizedInBandSPS(packet.payload) {
                // The packet is dropped, so the decoder never sees the SPS: later frames keep the last good one.
                guard refusedInBand != refusal else { return [] }
                refusedInBand = refusal
                return [.notice(refusal)]
            }
            return [.packet(packet)]
        case .endOfSequence:
            return []
        }
    }

    /// Why a packet's in-band SPS (a keyframe may repeat it, with another size) must not reach the
    /// decoder: its coded size is over ``OnAirCore/PictureBound``; nil when it has none or it fits.
    private func oversizedInBandSPS(_ payload: [UInt8]) -> String? {
        // Slices of the payload: no frame is copied to find the few bytes of an SPS.
        for unit in AnnexB.split(payload) where (unit.first ?? 0) & 0x1F == AnnexB.NALType.sequenceParameterSet.rawValue {
            guard let sps = H264SequenceParameterSet(Array(unit)) else { continue }
            guard !PictureBound.fits(width: sps.codedWidth, height: sps.codedHeight) else { continue }
            return "an in-band SPS codes a \(sps.codedWidth)×\(sps.codedHeight) picture (shown as \(sps.width)×\(sps.height)), larger than the "
                + "\(PictureBound.maxWidth)×\(PictureBound.maxHeight) OnAir's subscriber decodes; its frames are dropped"
        }
        return nil
    }

    private mutating func audio(_ body: ByteBuffer, timestamp: Int64) -> [RTMPPlayer.Event] {
        guard let format = body.getInteger(at: body.readerIndex, as: UInt8.self) else { return [] }
        guard format >> 4 == FLVAudioTag.SoundFormat.aac.rawValue else { return otherAudio(body, format: format, timestamp: timestamp) }
        guard let tag = try? FLVAudioTag(parsing: body) else { return [] }
        announcedAudioFormat = nil
        switch tag.packetType {
        case .sequenceHeader:
            let config = Array(tag.body.readableBytesView)
            let parsed = AACAudioSpecificConfig(config)
            let track = AudioTrackDescription(
                sampleRate: parsed?.sampleRate ?? 0, channels: parsed?.channels ?? 0,
                bitrate: audioBitrate, audioSpecificConfig: config)
            return [.audioTrack(track)]
        case .raw:
            return tag.encodedPacket(timestamp: timestamp).map { [.packet($0)] } ?? []
        }
    }

    private var audioBitrate: Int { Self.metadataCount(metadata?[FLVMetadata.Key.audioDataRate]?.numberValue, scale: 1000) }

    /// A metadata number as a whole count (pixels, bit/s after `scale`). The publisher writes these, so
    /// anything but a finite number in 0...Int32.max (NaN, ±inf, 1e300) reads as 0, "not said":
    /// `Int(_:)` of such a Double traps, and one `onMetaData` would have ended the subscriber.
    static func metadataCount(_ value: Double?, scale: Double = 1) -> Int {
        let scaled = (value ?? 0) * scale
        guard scaled.isFinite, scaled >= 0, scaled <= Double(Int32.max) else { return 0 }
        return Int(scaled)
    }

    /// A metadata frame rate: finite and in 0...1000 fps, else 0 ("not said"), for the same reason.
    static func metadataRate(_ value: Double?) -> Double {
        guard let value, value.isFinite, value >= 0, value <= 1000 else { return 0 }
        return value
    }

    /// MP3, PCM and G.711: the track from the format byte (FLV spec E.4.2.1), then the bytes after it.
    private mutating func otherAudio(_ body: ByteBuffer, format: UInt8, timestamp: Int64) -> [RTMPPlayer.Event] {
        guard let codec = FLVCodecField.codec(format) else {
            let name = FLVCodecField.name(format: format, body: body)
            let received = RTMPPlayer.Event.undecodable(kind: .audio, bytes: max(0, body.readableBytes - 1), timestamp: timestamp)
            guard unsupportedAudio != name else { return [received] }
            unsupportedAudio = name
            announcedAudioFormat = nil
            return [.notice("audio codec \(name) is not decoded (OnAir decodes \(AudioCodec.decodedNames) audio); no sound"), received]
        }
        unsupportedAudio = nil
        var events: [RTMPPlayer.Event] = []
        if announcedAudioFormat != format {
            announcedAudioFormat = format
            events.append(.audioTrack(AudioTrackDescription(
                sampleRate: FLVCodecField.sampleRate(format), channels: format & 1 == 1 ? 2 : 1,
                bitrate: audioBitrate, audioSpecificConfig: [], codec: codec)))
        }
        let payload = Array(body.readableBytesView.dropFirst())
        if !payload.isEmpty {
            events.append(.packet(EncodedPacket(kind: .audio, decodeTimestamp: timestamp, isKeyframe: true, payload: payload)))
        }
        return events
    }

    /// One notice per video codec OnAir does not decode; every tag is still a frame received.
    private mutating func unsupported(video body: ByteBuffer, timestamp: Int64) -> [RTMPPlayer.Event] {
        let name = FLVCodecField.videoCodecName(body)
        let received = RTMPPlayer.Event.undecodable(kind: .video, bytes: max(0, body.readableBytes - 1), timestamp: timestamp)
        guard unsupportedVideo != name else { return [received] }
        unsupportedVideo = name
        return [.notice("video codec \(name) is not decoded (OnAir decodes H.264 video); no picture"), received]
    }
}
