import OnAirCore
import Testing
@testable import OnAirMedia

@Suite("DecoderThread: subscriber decoding off the cooperative pool")
struct DecoderThreadTests {
    @Test("decodes submitted packets into a preview and an audio level; renderPaused counts video without decoding")
    func decodesAndPauses() async throws {
        let (track, video) = try PacketDecoderTests.packets()
        let audioEncoder = try AudioEncoder(sampleRate: 48_000, channels: 2, bitrate: 128_000, originNanoseconds: 0)
        let tone = try ToneSource(frequency: 440, amplitude: 0.25, pacing: .unpaced)
        var audio: [EncodedPacket] = []
        for _ in 0..<20 { audio += try audioEncoder.encode(try tone.read(frames: 1024), muted: false) }
        let decoder = try DecoderThread(video: track, audio: audioEncoder.track, previewWidth: 32, previewHeight: 18)
        for packet in video[0..<30] { decoder.submit(packet) }
        for packet in audio { decoder.submit(packet) }
        #expect(await EngineTestSupport.eventually { decoder.snapshot.counters.videoFramesDecoded == 30 && decoder.snapshot.backlog == 0 })
        #expect(await EngineTestSupport.eventually { decoder.snapshot.counters.audioFramesDecoded == audio.count })
        var snapshot = decoder.snapshot
        #expect(snapshot.preview?.width == 32 && snapshot.previewTimestamp == video[29].decodeTimestamp)
        let level = try #require(snapshot.audioLevel)
        #expect(abs(level.rmsDBFS - -15.05) < 0.5, "a 0.25-peak tone is −15 dBFS RMS; got \(level.rmsDBFS)")
        decoder.setRenderPaused(true)
        for packet in video[30..<60] { decoder.submit(packet) }
        #expect(await EngineTestSupport.eventually { decoder.snapshot.counters.videoPacketsReceived == 60 })
        snapshot = decoder.snapshot
        #expect(snapshot.renderPaused)
        #expect(snapshot.counters.videoFramesDecoded == 30 && snapshot.counters.videoSkippedWhilePaused == 30)
        decoder.setRenderPaused(false)
        for packet in video[60..<90] { decoder.submit(packet) }
        #expect(await EngineTestSupport.eventually { decoder.snapshot.counters.videoFramesDecoded == 60 })
        #expect(decoder.snapshot.decodeErrors == 0)
        decoder.stop()
    }

    @Test("a burst into a full queue: every packet is decoded or counted as dropped, video and audio — no loss is silent")
    func dropsAreCounted() async throws {
        let (track, video) = try PacketDecoderTests.packets()
        let audioEncoder = try AudioEncoder(sampleRate: 48_000, channels: 2, bitrate: 128_000, originNanoseconds: 0)
        let tone = try ToneSource(frequency: 440, amplitude: 0.25, pacing: .unpaced)
        var audio: [EncodedPacket] = []
        for _ in 0..<200 { audio += try audioEncoder.encode(try tone.read(frames: 1024), muted: false) }
        // Two slots and no waiting for room: a submit takes a microsecond, a decode tens of them, so the
        // queue overflows (video to the next keyframe; audio only once it holds nothing else).
        let decoder = try DecoderThread(video: track, audio: audioEncoder.track, previewWidth: 32, previewHeight: 18, backlog: 2)
        for packet in video[0..<90] { decoder.submit(packet) }
        for packet in audio { decoder.submit(packet) }
        #expect(await EngineTestSupport.eventually {
            let snapshot = decoder.snapshot
            return snapshot.backlog == 0 && snapshot.counters.audioFramesDecoded + snapshot.audioPacketsDropped == audio.count
        })
        let snapshot = decoder.snapshot
        #expect(snapshot.counters.videoPacketsReceived + snapshot.videoPacketsDropped == 90, "\(snapshot.counters)")
        #expect(snapshot.videoPacketsDropped > 0 && snapshot.audioPacketsDropped > 0, "\(snapshot.videoPacketsDropped) \(snapshot.audioPacketsDropped)")
        decoder.stop()
    }

    @Test("a missing track decodes nothing of that kind; garbage does not stop the thread from decoding the next keyframe")
    func garbage() async throws {
        let (track, video) = try PacketDecoderTests.packets()
        let decoder = try DecoderThread(video: track, audio: nil)
        decoder.submit(EncodedPacket(kind: .video, decodeTimestamp: 0, isKeyframe: true, payload: [0, 0, 0, 1, 0x65, 0xFF, 0xFF, 0x00]))
        decoder.submit(EncodedPacket(kind: .audio, decodeTimestamp: 0, isKeyframe: true, payload: [1, 2, 3]))
        #expect(await EngineTestSupport.eventually { decoder.snapshot.counters.videoPacketsReceived == 1 && decoder.snapshot.backlog == 0 })
        #expect(decoder.snapshot.counters.audioFramesDecoded == 0)
        decoder.submit(video[0])
        #expect(await EngineTestSupport.eventually { decoder.snapshot.previewTimestamp == video[0].decodeTimestamp })
        decoder.stop()
    }

    @Test("a repeated track configuration (nginx re-sends headers; the other track's header arrives) keeps the decoder and its keyframe; a new one is applied after the packets before it")
    func configurationPerTrack() async throws {
        let (track, video) = try PacketDecoderTests.packets()
        let (audioTrack, audio) = try HostileTrackTests.tone()
        // Room for every packet: with the default backlog a slow (loaded) thread would drop video to the next
        // keyframe, which is the queue's behaviour, not what this test is about.
        let decoder = try DecoderThread(video: nil, audio: nil, backlog: 1000)
        decoder.configure(video: track)
        decoder.submit(video[0])                     // the keyframe
        decoder.configure(audio: audioTrack)         // nginx: A header after V key
        decoder.configure(video: track)              // the same V header again
        for packet in video[1..<30] { decoder.submit(packet) }
        for packet in audio { decoder.submit(packet) }
        #expect(await EngineTestSupport.eventually { decoder.snapshot.counters.videoFramesDecoded == 30 })
        #expect(await EngineTestSupport.eventually { decoder.snapshot.counters.audioFramesDecoded == audio.count })
        #expect(decoder.snapshot.counters.rebuilds == 2, "one video and one audio decoder opened, none rebuilt")
        #expect(decoder.snapshot.counters.videoSkippedAwaitingKeyframe == 0)
        // A changed configuration (another PPS) rebuilds only video, after the packets submitted before it: 30–39
        // (a keyframe and nine more) go through the old decoder, and the rebuilt one waits for a keyframe, so the
        // five after it (40–44, no keyframe) are skipped. Applied early, all fifteen would decode.
        var changed = track
        changed.pictureParameterSets = track.pictureParameterSets + track.pictureParameterSets
        for packet in video[30..<40] { decoder.submit(packet) }
        decoder.configure(video: changed)
        for packet in video[40..<45] { decoder.submit(packet) }
        // The thread takes a command or a packet off its queue before it applies it and publishes the counters,
        // so an empty queue alone does not mean the rebuild is counted yet (CI saw 2 rebuilds there under load):
        // wait for the counts themselves.
        #expect(await EngineTestSupport.eventually {
            let counters = decoder.snapshot.counters
            return counters.rebuilds == 3 && counters.videoFramesDecoded + counters.videoSkippedAwaitingKeyframe == 45
        }, "\(decoder.snapshot.counters)")
        #expect(decoder.snapshot.counters.videoFramesDecoded == 40)
        #expect(decoder.snapshot.counters.videoSkippedAwaitingKeyframe == 5)
        decoder.stop()
    }
}

