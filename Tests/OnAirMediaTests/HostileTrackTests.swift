import OnAirCore
import OnAirTestSupport
import Testing
@testable import OnAirMedia

/// Issue 14 item 7: the subscriber's memory must not follow a hostile SPS, and a broken audio configuration
/// must not stop video.
@Suite("subscriber decoder against hostile track configurations")
struct HostileTrackTests {
    /// A Baseline SPS declaring `widthInMacroblocks`×`heightInMacroblocks` (no cropping, no VUI), as a
    /// hostile publisher would send it (`HostileSPS`, the one builder of the suite).
    static func sps(widthInMacroblocks: Int, heightInMacroblocks: Int) -> [UInt8] {
        HostileSPS.make(widthInMacroblocks: widthInMacroblocks, heightInMacroblocks: heightInMacroblocks)
    }

    static func tone() throws -> (AudioTrackDescription, [EncodedPacket]) {
        let encoder = try AudioEncoder(sampleRate: 48_000, channels: 2, bitrate: 128_000, originNanoseconds: 0)
        let tone = try ToneSource(frequency: 440, amplitude: 0.25, pacing: .unpaced)
        var packets: [EncodedPacket] = []
        for _ in 0..<20 { packets += try encoder.encode(try tone.read(frames: 1024), muted: false) }
        return (encoder.track, packets)
    }

    @Test("a 16368×8000 track is refused with one line before any decoder is opened; audio goes on")
    func hugePictureRefused() async throws {
        let (audioTrack, audio) = try Self.tone()
        let (realTrack, video) = try PacketDecoderTests.packets()
        var huge = realTrack
        (huge.width, huge.height) = (16368, 8000)
        huge.sequenceParameterSets = [Self.sps(widthInMacroblocks: 1023, heightInMacroblocks: 500)]
        let decoder = try DecoderThread(video: huge, audio: audioTrack)
        decoder.configure(video: huge)               // the server repeats the header: still one line
        for packet in video.prefix(10) { decoder.submit(packet) }
        for packet in audio { decoder.submit(packet) }
        #expect(await EngineTestSupport.eventually { decoder.snapshot.counters.audioFramesDecoded == audio.count })
        let snapshot = decoder.snapshot
        #expect(snapshot.problems.count == 1 && snapshot.problems[0].contains("16368×8000"), "\(snapshot.problems)")
        #expect(snapshot.counters.videoFramesDecoded == 0 && snapshot.decodeErrors == 0)
        // The next, sane configuration decodes again.
        decoder.configure(video: realTrack)
        for packet in video.prefix(10) { decoder.submit(packet) }
        #expect(await EngineTestSupport.eventually { decoder.snapshot.counters.videoFramesDecoded == 10 })
        decoder.stop()
    }

    @Test("an in-band SPS larger than the bound, inside a keyframe, never yields a picture above the bound (max_pixels backs the check)")
    func inBandHugeSPS() throws {
        let (track, video) = try PacketDecoderTests.packets()
        let decoder = try PacketDecoder(video: track, audio: nil, keepsFullFrames: true)
        // The keyframe's own SPS (if x264 repeated it) is replaced: the hostile one is what the slices refer to.
        let units = AnnexB.nalUnits(video[0].payload).filter { ($0.first ?? 0) & 0x1F != 7 }
        let hostile = AnnexB.join([Self.sps(widthInMacroblocks: 1023, heightInMacroblocks: 500)] + units)
        var keyframe = video[0]
        keyframe.payload = hostile
        // libavcodec either refuses the picture (max_pixels) or keeps the configured SPS; it never makes a
        // 16368×8000 picture.
        if case .picture(let picture)? = try? decoder.decode(keyframe) {
            #expect(picture.frame.map { $0.width * $0.height } ?? 0 <= PacketDecoder.maxPictureWidth * PacketDecoder.maxPictureHeight)
        }
        #expect(PacketDecoder.pictureFits(width: 4096, height: 2304) && !PacketDecoder.pictureFits(width: 4112, height: 2304))
        #expect(!PacketDecoder.pictureFits(width: Int.max, height: 2))
    }

    @Test("an AAC configuration the decoder cannot open is one line; video keeps decoding every frame")
    func brokenAudioConfiguration() async throws {
        let (track, video) = try PacketDecoderTests.packets()
        let broken = AudioTrackDescription(sampleRate: 0, channels: 0, bitrate: 0, audioSpecificConfig: [0xFF, 0xFF, 0xFF])
        let decoder = try DecoderThread(video: track, audio: broken)
        for packet in video.prefix(30) {
            decoder.submit(packet)
            decoder.submit(EncodedPacket(kind: .audio, decodeTimestamp: packet.decodeTimestamp, isKeyframe: true, payload: [0x21, 0x10, 0x04]))
        }
        #expect(await EngineTestSupport.eventually { decoder.snapshot.counters.videoFramesDecoded == 30 })
        #expect(decoder.snapshot.problems.count <= 1)
        decoder.stop()
    }
}
