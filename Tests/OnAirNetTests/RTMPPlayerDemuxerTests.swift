import NIOCore
import OnAirCore
@testable import OnAirNet
import OnAirRTMP
import Testing

@Suite("Player demuxer")
struct RTMPPlayerDemuxerTests {
    static let sps: [UInt8] = [0x67, 0x42, 0xC0, 0x1E, 0xD9, 0x00, 0xA0, 0x2F, 0xF9, 0x70, 0x11, 0x00, 0x00, 0x03, 0x00, 0x01, 0x00, 0x00, 0x03, 0x00, 0x32, 0x0F, 0x16, 0x2E, 0x48]
    static let pps: [UInt8] = [0x68, 0xCE, 0x3C, 0x80]

    /// `track` with its coded (uncropped) size, as the demuxer reads it from the SPS.
    static func coded(_ track: VideoTrackDescription, width: Int, height: Int) -> VideoTrackDescription {
        var track = track
        (track.codedWidth, track.codedHeight) = (width, height)
        return track
    }

    static func incoming(_ message: RTMPMessage, at timestamp: UInt32 = 0) -> RTMPClient.Incoming {
        RTMPClient.Incoming(message: message, timestamp: timestamp, messageStreamID: 1)
    }

    @Test("each message becomes the right event, in order, with Annex-B video and track descriptions")
    func table() throws {
        var demuxer = RTMPPlayerDemuxer()
        let metadata = AMF0Value.ecmaArray(["width": .number(640), "height": .number(360), "framerate": .number(30), "audiodatarate": .number(128)])
        let record = try AVCDecoderConfigurationRecord(sequenceParameterSets: [Self.sps], pictureParameterSets: [Self.pps])
        let frame = EncodedPacket(kind: .video, decodeTimestamp: 40, isKeyframe: true, payload: [0, 0, 0, 1, 0x65, 7, 7])
        let sound = EncodedPacket(kind: .audio, decodeTimestamp: 41, isKeyframe: true, payload: [9, 9])
        let status = RTMPStatus(code: .playPublishNotify, level: .status, description: "x")
        let cases: [(RTMPMessage, UInt32, [RTMPPlayer.Event])] = [
            (.command(.onStatus(status)), 0, [.status(status)]),
            (.userControl(.streamBegin(streamID: 1)), 0, [.streamBegin]),
            (.data(RTMPDataMessage(handler: "onMetaData", arguments: [metadata])), 0, [.metadata([
                "width": .number(640), "height": .number(360), "framerate": .number(30), "audiodatarate": .number(128),
            ])]),
            (.data(RTMPDataMessage(handler: "publisherBackground", arguments: [.string("streamName=s")])), 0,
             [.message(handler: "publisherBackground", arguments: [.string("streamName=s")])]),
            (.video(FLVVideoTag.sequenceHeader(record)), 0, [.videoTrack(Self.coded(VideoTrackDescription(
                width: 640, height: 360, framesPerSecond: 30, bitrate: 0, sequenceParameterSets: [Self.sps], pictureParameterSets: [Self.pps]),
                width: 640, height: 368))]),
            (.audio(FLVAudioTag.sequenceHeader(audioSpecificConfig: [0x12, 0x10])), 0, [.audioTrack(AudioTrackDescription(
                sampleRate: 44_100, channels: 2, bitrate: 128_000, audioSpecificConfig: [0x12, 0x10]))]),
            (.video(FLVVideoTag.frame(frame)), 40, [.packet(frame)]),
            (.audio(FLVAudioTag.frame(sound)), 41, [.packet(sound)]),
            (.video(ByteBuffer(bytes: [0x12, 0, 0])), 42, []),                 // not H.264: skipped
            (.userControl(.streamEOF(streamID: 1)), 0, [.streamEOF]),
            (.setChunkSize(4096), 0, []),
        ]
        for (message, timestamp, expected) in cases {
            #expect(demuxer.handle(Self.incoming(message, at: timestamp)) == expected)
        }
    }

    @Test("MP3 and PCM tags announce a track from the format byte once, then packets; other codecs are one notice each")
    func otherCodecs() {
        var demuxer = RTMPPlayerDemuxer()
        func audio(_ bytes: [UInt8], at timestamp: UInt32 = 0) -> [RTMPPlayer.Event] {
            demuxer.handle(Self.incoming(.audio(ByteBuffer(bytes: bytes)), at: timestamp))
        }
        // 0x2E: MP3, 44 kHz, 16-bit, mono.
        #expect(audio([0x2E, 0xFF, 0xFB], at: 10) == [
            .audioTrack(AudioTrackDescription(sampleRate: 44_100, channels: 1, bitrate: 0, audioSpecificConfig: [], codec: .mp3)),
            .packet(EncodedPacket(kind: .audio, decodeTimestamp: 10, isKeyframe: true, payload: [0xFF, 0xFB])),
        ])
        #expect(audio([0x2E, 0xFF, 0xFB], at: 36) == [.packet(EncodedPacket(kind: .audio, decodeTimestamp: 36, isKeyframe: true, payload: [0xFF, 0xFB]))])
        // 0x3F: PCM little-endian, 44 kHz, 16-bit, stereo: a new track.
        #expect(audio([0x3F, 1, 0, 2, 0]).first == .audioTrack(AudioTrackDescription(
            sampleRate: 44_100, channels: 2, bitrate: 0, audioSpecificConfig: [], codec: .pcm(bitsPerSample: 16))))
        // Speex (11), twice: one notice; each tag's bytes (after the format byte) were received all the same.
        let speex = audio([0xB2, 1, 2], at: 40) + audio([0xB2, 3, 4, 5], at: 60)
        #expect(Array(speex.dropFirst()) == [
            .undecodable(kind: .audio, bytes: 2, timestamp: 40), .undecodable(kind: .audio, bytes: 3, timestamp: 60),
        ])
        guard case .notice(let text)? = speex.first else { Issue.record("no notice: \(speex)"); return }
        #expect(text.contains("Speex") && text.contains("AAC, MP3, PCM and G.711"))
        // Sorenson H.263 (codec 2) and VP6 (4): one notice per codec, every tag a frame received.
        let video = [0x22, 0x22, 0x24].flatMap { demuxer.handle(Self.incoming(.video(ByteBuffer(bytes: [$0, 0, 0, 0, 0])))) }
        let notices = video.filter { if case .notice = $0 { true } else { false } }
        #expect(notices.count == 2, "\(video)")
        #expect(notices.first.map { if case .notice(let text) = $0 { text.contains("Sorenson H.263") } else { false } } == true)
        #expect(video.filter { $0 == .undecodable(kind: .video, bytes: 4, timestamp: 0) }.count == 3, "\(video)")
    }
}

