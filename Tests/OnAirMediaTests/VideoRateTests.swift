import OnAirCore
import Testing
@testable import OnAirMedia

/// Adaptive bitrate's lever: x264's rate changed between frames on the open encoder.
@Suite("video rate changes between frames")
struct VideoRateTests {
    /// Bytes of `packets` as bit/s over `seconds`.
    static func rate(_ packets: [EncodedPacket], seconds: Double) -> Double {
        Double(packets.reduce(0) { $0 + $1.payload.count } * 8) / seconds
    }

    /// The pattern with camera-like noise on its luma: the bare pattern compresses to a fraction of 2500k,
    /// and a rate change can only be seen on a picture that fills the rate.
    static func noisy(_ pattern: TestPattern, frameIndex: Int) -> VideoFrame {
        var frame = pattern.render(frameIndex: frameIndex)
        var random = SplitMix64(state: UInt64(frameIndex + 1))
        let words = frame.lumaCount / 8
        frame.planes.withUnsafeMutableBytes { bytes in
            let luma = bytes.baseAddress!.assumingMemoryBound(to: UInt64.self)
            for index in 0..<words {
                luma[index] ^= random.next() & 0x0F0F_0F0F_0F0F_0F0F
            }
        }
        return frame
    }

    /// The first second after the switch still carries what x264's VBV held at the old rate (libx264 keeps
    /// its buffer fill across `x264_encoder_reconfig`), so it is checked to have dropped to under half the
    /// old rate; the second after it is checked against the new rate.
    @Test("2500k → 800k mid-stream: at once under half, then within ±15 % of 800k; same context, same SPS/PPS, no keyframe")
    func bitrateSwitch() throws {
        let settings = EncodeDecodeRoundTripTests.settings(width: 640, height: 360, bitrate: 2_500_000)
        let encoder = try VideoEncoder(settings)
        let pattern = TestPattern(width: 640, height: 360, framesPerSecond: 30)
        let contextBefore = encoder.codec.context
        let headerBefore = encoder.codec.extradata
        var perFrame: [[EncodedPacket]] = []
        for index in 0..<150 {
            if index == 75 { encoder.reconfigure(bitrate: 800_000) }
            perFrame.append(try encoder.encode(Self.noisy(pattern, frameIndex: index), milliseconds: Int64(index * 1000 / 30), forceKeyframe: false))
        }
        let before = Self.rate(perFrame[45..<75].flatMap { $0 }, seconds: 1)
        let nextSecond = Self.rate(perFrame[75..<105].flatMap { $0 }, seconds: 1)
        let secondAfter = Self.rate(perFrame[105..<135].flatMap { $0 }, seconds: 1)
        print("x264 reconfigure 360p30 (noisy pattern): before \(Int(before / 1000))k, next second \(Int(nextSecond / 1000))k, the one after \(Int(secondAfter / 1000))k")
        #expect(abs(before - 2_500_000) / 2_500_000 < 0.25, "the pattern must fill 2500k for the switch to mean anything: \(before)")
        #expect(nextSecond < before / 2, "next second after the switch: \(nextSecond)")
        #expect(abs(secondAfter - 800_000) / 800_000 <= 0.15, "second after: \(secondAfter)")
        #expect(encoder.codec.context == contextBefore, "the encoder was reopened")
        #expect(encoder.codec.extradata == headerBefore, "new SPS/PPS after a rate change")
        #expect(perFrame[75].allSatisfy { !$0.isKeyframe }, "a rate change needs no keyframe")
        #expect(encoder.bitrate == 800_000)
    }

    @Test("decimation keeps evenly spread pictures, the first one, none at 0 fps")
    func decimation() {
        func kept(_ source: Double, _ target: Double, _ count: Int) -> [Int] {
            var decimator = FrameDecimator(sourceFramesPerSecond: source, targetFramesPerSecond: target)
            return (0..<count).filter { _ in decimator.admit() }
        }
        #expect(kept(30, 15, 8) == [0, 2, 4, 6])
        #expect(kept(30, 20, 6) == [0, 2, 3, 5])
        #expect(kept(30, 30, 4) == [0, 1, 2, 3])
        #expect(kept(30, 60, 3) == [0, 1, 2])
        #expect(kept(30, 10, 30).count == 10)
        #expect(kept(30, 0, 30).isEmpty)
    }

    @Test("the engine applies a new rate between frames: half the frames, the same track, the ceiling kept")
    func engineRate() async throws {
        var configuration = EngineTestSupport.configuration(audio: nil)
        configuration.videoBitrate = 1_200_000
        let engine = try MediaEngine(configuration)
        try engine.start()
        let track = engine.videoTrack
        _ = await EngineTestSupport.collect(engine) { $0.video.count >= 45 }
        engine.setVideoRate(VideoRate(bitrate: 300_000, framesPerSecond: 15))
        #expect(await EngineTestSupport.eventually { engine.videoRate.bitrate == 300_000 })
        while engine.queue.poll() != nil {}
        // Skip the first second after the change (the VBV drains), then measure two seconds of stream time.
        let after = await EngineTestSupport.collect(engine) { packets in
            guard let first = packets.first, let last = packets.last else { return false }
            return last.decodeTimestamp - first.decodeTimestamp >= 3000
        }
        let start = (after.first?.decodeTimestamp ?? 0) + 1000
        let measured = after.filter { $0.decodeTimestamp >= start && $0.decodeTimestamp < start + 2000 }
        let bitrate = Self.rate(measured, seconds: 2)
        // The bare pattern at 320x180 stays under either rate, so the bitrate's accuracy is checked on the
        // encoder above; here the figure is printed, and the frame rate and the track are checked.
        print("engine 320x180 at 300k/15 fps after a change from 1200k/30: \(Int(bitrate / 1000))k, \(measured.count / 2) fps")
        #expect((26...32).contains(measured.count), "frames in 2 s at 15 fps: \(measured.count)")
        #expect(measured.filter(\.isKeyframe).count <= 1, "no keyframe but the 2 s GOP's own")
        #expect(engine.videoTrack == track)
        engine.setVideoRate(VideoRate(bitrate: 9_000_000, framesPerSecond: 60))
        #expect(await EngineTestSupport.eventually { engine.videoRate.bitrate == 1_200_000 }, "the ceiling is the configured bitrate")
        #expect(engine.videoRate.framesPerSecond == 30)
        engine.stop()
    }

    @Test("an audio-only target stops video while audio flows; video comes back with a keyframe")
    func audioOnly() async throws {
        let engine = try MediaEngine(EngineTestSupport.configuration())
        try engine.start()
        _ = await EngineTestSupport.collect(engine) { $0.video.count >= 5 }
        engine.apply(AdaptiveBitrateTarget(videoBitrate: 200_000, framesPerSecond: 15, audioOnly: true))
        #expect(await EngineTestSupport.eventually { engine.videoRate.framesPerSecond == 0 })
        // A frame may have been mid-encode when the change landed: drain, then watch a second of audio.
        while engine.queue.poll() != nil {}
        let encodedAtChange = engine.stats.framesEncoded
        let audioOnly = await EngineTestSupport.collect(engine) { $0.audio.count >= 45 }
        #expect(audioOnly.video.count <= 1, "video packets while audio-only: \(audioOnly.video.count)")
        #expect(engine.stats.framesEncoded <= encodedAtChange + 1)
        engine.apply(AdaptiveBitrateTarget(videoBitrate: 200_000, framesPerSecond: 15))
        let resumed = await EngineTestSupport.collect(engine) { $0.video.count >= 3 }
        #expect(resumed.video.first?.isKeyframe == true, "video after audio-only must start with a keyframe")
        #expect(engine.videoRate == VideoRate(bitrate: 200_000, framesPerSecond: 15))
        engine.stop()
    }
}
