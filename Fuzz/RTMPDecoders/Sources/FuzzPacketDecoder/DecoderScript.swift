import NIOCore
import OnAirCore
import OnAirRTMP

/// A fuzz input read as what a subscriber's decoder is handed: the tracks a player announces and the packets,
/// configuration changes, pauses and drains that follow (the format is in FuzzPacketDecoder.swift's header).
struct DecoderScript {
    enum Step {
        case packet(EncodedPacket)
        /// A new video track from an avcC record (nil: the stream has none); the NAL length size goes with it.
        case video(VideoTrackDescription?, nalLengthSize: Int)
        case audio(AudioTrackDescription?)
        case togglePause
        case drain
    }

    /// Steps one input may hold (a drain, a rebuild or a packet each), so that an input runs in milliseconds.
    static let maximumSteps = 64
    /// The harness's own bound on a picture's coded size, far under ``OnAirCore/PictureBound``: libavcodec and
    /// libswscale are not instrumented, so a larger picture is no new coverage, only a slower input.
    static let maximumPixels = 640 * 480

    var keepsFullFrames = false
    var previewWidth = 128
    var previewHeight = 72
    var video: VideoTrackDescription?
    var nalLengthSize = 4
    var audio: AudioTrackDescription?
    var steps: [Step] = []
    /// Packets the harness dropped as a player would (a malformed NAL length, an in-band SPS over the bounds).
    var dropped = 0

    init?(_ bytes: UnsafeBufferPointer<UInt8>) {
        var reader = Reader(bytes: bytes)
        guard let flags = reader.byte(), let width = reader.byte(), let height = reader.byte() else { return nil }
        keepsFullFrames = flags & 1 != 0
        if flags & 2 != 0 {
            previewWidth = 1 + Int(width) % 64
            previewHeight = 1 + Int(height) % 36
        }
        var lengthSize = 4
        guard let video = Self.videoTrack(&reader, nalLengthSize: &lengthSize), let audio = Self.audioTrack(&reader) else { return nil }
        self.video = video.track
        self.audio = audio
        nalLengthSize = lengthSize
        var timestamp: UInt32 = 0
        while steps.count < Self.maximumSteps, let op = reader.byte() {
            switch op & 7 {
            case 0, 1, 2:
                guard let delta = reader.word(), let composition = reader.word(), let payload = reader.block() else { return }
                timestamp &+= UInt32(delta)
                // What `FLVVideoTag.encodedPacket` does with a tag's body: length-prefixed NAL units to Annex-B.
                guard let annexB = try? H264NALUnits.annexB(fromLengthPrefixed: ByteBuffer(bytes: payload), lengthSize: lengthSize),
                      Self.inBandSetsFit(annexB) else {
                    dropped += 1
                    continue
                }
                steps.append(.packet(EncodedPacket(
                    kind: .video, decodeTimestamp: Int64(timestamp), compositionOffset: Int32(Int16(bitPattern: composition)),
                    isKeyframe: op & 0x80 != 0, payload: annexB)))
            case 3:
                guard let delta = reader.word(), let payload = reader.block() else { return }
                timestamp &+= UInt32(delta)
                steps.append(.packet(EncodedPacket(kind: .audio, decodeTimestamp: Int64(timestamp), isKeyframe: true, payload: payload)))
            case 4:
                guard let video = Self.videoTrack(&reader, nalLengthSize: &lengthSize) else { return }
                if video.parsed { steps.append(.video(video.track, nalLengthSize: lengthSize)) }
            case 5:
                guard let audio = Self.audioTrack(&reader) else { return }
                steps.append(.audio(audio))
            case 6: steps.append(.togglePause)
            default: steps.append(.drain)
            }
        }
    }

    /// A UInt16 length and an avcC record, read as `RTMPPlayerDemuxer` reads an AVC sequence header (no
    /// metadata: the size is the first SPS's). Length 0: no video. A record that does not parse changes
    /// nothing (`parsed` false), as with the player; nor does one over the harness's bound.
    private static func videoTrack(_ reader: inout Reader, nalLengthSize: inout Int) -> (track: VideoTrackDescription?, parsed: Bool)? {
        guard let record = reader.block() else { return nil }
        guard !record.isEmpty else { return (nil, true) }
        guard let parsed = try? AVCDecoderConfigurationRecord(parsing: ByteBuffer(bytes: record)) else { return (nil, false) }
        let sps = parsed.sequenceParameterSets.first.flatMap(H264SequenceParameterSet.init)
        var track = VideoTrackDescription(
            width: sps?.width ?? 0, height: sps?.height ?? 0, framesPerSecond: 0, bitrate: 0,
            sequenceParameterSets: parsed.sequenceParameterSets, pictureParameterSets: parsed.pictureParameterSets)
        let coded = parsed.sequenceParameterSets.compactMap(H264SequenceParameterSet.init)
        track.codedWidth = coded.map(\.codedWidth).max() ?? 0
        track.codedHeight = coded.map(\.codedHeight).max() ?? 0
        // Over PictureBound: PacketDecoder's own refusal runs (it costs nothing). Within it but over the
        // harness's bound: left out, for speed.
        let refused = !PictureBound.fits(width: track.codedWidth, height: track.codedHeight)
            || !PictureBound.fits(width: track.width, height: track.height)
        guard refused || harnessFits(width: track.codedWidth, height: track.codedHeight) else { return (nil, false) }
        nalLengthSize = parsed.nalLengthSize
        return (track, true)
    }

    /// Codec byte (mod 7: AAC, MP3, PCM 8-bit, PCM 16-bit, A-law, µ-law, none), a UInt24 rate, a channel count
    /// (mod 9), a byte length and an AudioSpecificConfig. AAC's rate and channels come from its config, as the
    /// player reads them; the other codecs' from the two fields (the player's come from the FLV format byte).
    private static func audioTrack(_ reader: inout Reader) -> AudioTrackDescription?? {
        guard let codecByte = reader.byte(), let low = reader.word(), let high = reader.byte(), let channels = reader.byte(),
              let count = reader.byte(), let config = reader.bytes(Int(count)) else { return nil }
        let rate = Int(low) | Int(high) << 16
        let codecs: [AudioCodec] = [.aac, .mp3, .pcm(bitsPerSample: 8), .pcm(bitsPerSample: 16), .g711ALaw, .g711MuLaw]
        let index = Int(codecByte) % 7
        guard index < codecs.count else { return .some(nil) }
        if codecs[index] == .aac {
            let parsed = AACAudioSpecificConfig(config)
            return AudioTrackDescription(sampleRate: parsed?.sampleRate ?? 0, channels: parsed?.channels ?? 0, bitrate: 0, audioSpecificConfig: config)
        }
        return AudioTrackDescription(sampleRate: rate, channels: Int(channels) % 9, bitrate: 0, audioSpecificConfig: [], codec: codecs[index])
    }

    /// Whether every SPS a packet carries in-band fits: the player drops a packet whose SPS is over
    /// ``OnAirCore/PictureBound`` (`RTMPPlayerDemuxer.oversizedInBandSPS`); the harness's bound is tighter.
    private static func inBandSetsFit(_ payload: [UInt8]) -> Bool {
        for unit in AnnexB.split(payload) where (unit.first ?? 0) & 0x1F == AnnexB.NALType.sequenceParameterSet.rawValue {
            guard let sps = H264SequenceParameterSet(Array(unit)) else { continue }
            guard harnessFits(width: sps.codedWidth, height: sps.codedHeight) else { return false }
        }
        return true
    }

    static func harnessFits(width: Int, height: Int) -> Bool {
        PictureBound.fits(width: width, height: height) && width * height <= maximumPixels
    }

    /// Little-endian fields over the input.
    struct Reader {
        let bytes: UnsafeBufferPointer<UInt8>
        var position = 0

        mutating func byte() -> UInt8? {
            guard position < bytes.count else { return nil }
            defer { position += 1 }
            return bytes[position]
        }

        mutating func word() -> UInt16? {
            guard let low = byte(), let high = byte() else { return nil }
            return UInt16(low) | UInt16(high) << 8
        }

        mutating func bytes(_ count: Int) -> [UInt8]? {
            guard count <= bytes.count - position else { return nil }
            defer { position += count }
            return Array(UnsafeBufferPointer(rebasing: bytes[position..<(position + count)]))
        }

        /// A UInt16 length and that many bytes.
        mutating func block() -> [UInt8]? {
            guard let count = word() else { return nil }
            return bytes(Int(count))
        }
    }
}
