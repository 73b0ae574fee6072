import Foundation
import OnAirCore
import Testing
@testable import OnAirMedia

@Suite("MediaEngine: live capture → encode → queue", .serialized)
struct MediaEngineTests {
    @Test("tracks are known after start; packets start with a keyframe; both tracks share one clock; stats and preview fill")
    func liveRun() async throws {
        let engine = try MediaEngine(EngineTestSupport.configuration())
        try engine.start()
        let video = try #require(engine.videoTrack)
        let audio = try #require(engine.audioTrack)
        #expect(video.width == 320 && video.height == 180 && !video.sequenceParameterSets.isEmpty)
        #expect(audio.sampleRate == 48_000 && audio.audioSpecificConfig.count == 2)
        let packets = await EngineTestSupport.collect(engine) { $0.video.count >= 30 && $0.audio.count >= 40 }
        #expect(packets.video.first?.isKeyframe == true)
        #expect(packets.video.strictlyIncreasing && packets.audio.strictlyIncreasing)
        #expect(packets.allSatisfy { $0.captureNanoseconds != nil })
        // One clock: every timestamp is its capture time on the monotonic clock minus the engine's origin
        // (audio: the first sample's time plus samples / rate, which is the same thing). Checked exactly, not by timing.
        for packet in packets {
            let expected = engine.control.milliseconds(packet.captureNanoseconds ?? 0)
            #expect(packet.decodeTimestamp >= expected && packet.decodeTimestamp <= expected + 1, "\(packet.kind) at \(packet.decodeTimestamp)")
        }
        let stats = engine.stats
        print("engine 320x180@30: latency p50 \(stats.latencyP50Milliseconds ?? -1) ms p99 \(stats.latencyP99Milliseconds ?? -1) ms,"
            + " encode \(stats.encodeMillisecondsPerFrame) ms/frame, audio p50 \(stats.output?.audioLatencyP50 ?? -1) ms")
        #expect(stats.isRunning && !stats.videoPaused && !stats.audioPaused)
        #expect(stats.framesEncoded >= 30 && stats.keyframesEncoded >= 1 && stats.audioPacketsEncoded >= 40)
        #expect(stats.encodedFramesPerSecond > 0 && stats.videoBitrate10s > 0 && stats.audioBitrate10s > 0)
        #expect(stats.encodeMillisecondsPerFrame > 0)
        #expect(stats.latencyP50Milliseconds != nil && stats.latencyP99Milliseconds != nil)
        #expect(stats.grantedVideo == VideoSourceFormat(width: 320, height: 180, framesPerSecond: 30, pixelFormat: "test pattern"))
        #expect((stats.output?.highWater ?? .max) <= 120)
        // Nobody has read the preview yet, so in 30 frames (≥ 8 refreshes' worth) none was scaled (issue 31).
        #expect(engine.control.preview.withLock { $0 == nil }, "a preview was scaled with nobody reading it")
        // Reading asks for it: the capture thread scales the next frame's (bounded wait, not a timing check).
        var read = engine.preview
        let deadline = Date().addingTimeInterval(20)
        while read == nil, Date() < deadline {
            try await Task.sleep(for: .milliseconds(20))
            read = engine.preview
        }
        let preview = try #require(read)
        #expect(preview.width == 128 && preview.height == 72)
        // The stream decodes: the first keyframe gives a 320x180 picture.
        let decoder = try PacketDecoder(video: video, audio: audio, keepsFullFrames: true)
        guard case let .picture(picture) = try decoder.decode(packets.video[0]) else {
            Issue.record("first video packet did not decode")
            return
        }
        #expect(picture.frame?.width == 320 && picture.frame?.height == 180)
        engine.stop()
        #expect(!engine.stats.isRunning)
        var leftovers = 0
        for await _ in engine.packets { leftovers += 1 }
        #expect(leftovers <= 120, "the stream ends after stop, once drained")
    }

    @Test("pauseVideo: no video packets while paused, audio keeps flowing; the first frame after resuming is a keyframe")
    func pauseVideo() async throws {
        let engine = try MediaEngine(EngineTestSupport.configuration())
        try engine.start()
        _ = await EngineTestSupport.collect(engine) { $0.video.count >= 5 }
        engine.pauseVideo()
        #expect(engine.stats.videoPaused)
        // Let the pause take effect (a frame may have been mid-encode), then drain what was encoded before it.
        #expect(await EngineTestSupport.eventually { engine.stats.framesSkippedWhilePaused >= 1 })
        while engine.queue.poll() != nil {}
        let encodedAtPause = engine.stats.framesEncoded
        let whilePaused = await EngineTestSupport.collect(engine) { $0.audio.count >= 30 }
        #expect(whilePaused.video.isEmpty, "video packets while paused: \(whilePaused.video.count)")
        #expect(engine.stats.framesEncoded == encodedAtPause)
        #expect(engine.stats.framesSkippedWhilePaused >= 10)
        engine.pauseVideo(false)
        let resumed = await EngineTestSupport.collect(engine) { !$0.video.isEmpty }
        #expect(resumed.video.first?.isKeyframe == true)
        engine.stop()
    }

    @Test("pauseAudio: encoded silence keeps audio timestamps flowing, one AAC frame apart")
    func pauseAudio() async throws {
        let engine = try MediaEngine(EngineTestSupport.configuration(video: nil))
        try engine.start()
        let track = try #require(engine.audioTrack)
        let decoder = try PacketDecoder(video: nil, audio: track)
        let before = await EngineTestSupport.collect(engine) { $0.count >= 20 }
        engine.pauseAudio()
        let encodedAtPause = engine.stats.audioPacketsEncoded
        #expect(engine.stats.audioPaused)
        // At least 20 packets encoded after the pause, however many were still queued when it came (a
        // loaded machine leaves a backlog).
        let paused = await EngineTestSupport.collect(engine) { $0.count >= 40 && before.count + $0.count >= encodedAtPause + 23 }
        engine.pauseAudio(false)
        let after = await EngineTestSupport.collect(engine) { $0.count >= 10 }
        let drops = engine.stats.drops
        engine.stop()
        let all = before + paused + after
        #expect(all.allSatisfy { $0.kind == .audio })
        let steps = zip(all, all.dropFirst()).map { $1.decodeTimestamp - $0.decodeTimestamp }
        // On a starved machine a live source skips ahead rather than bursting; such a gap must be one the
        // engine counted (a late source, an overrun or a congestion drop), never a silent hole.
        let irregular = steps.filter { $0 != 21 && $0 != 22 }
        #expect(steps.allSatisfy { $0 >= 21 }, "timestamps must advance by at least one AAC frame; steps \(Set(steps))")
        #expect(irregular.isEmpty || drops.total + drops.audioOverruns > 0,
                "1024 samples at 48 kHz = 21.33 ms; uncounted gaps \(irregular)")
        var peaks: [Double] = []
        for packet in all {
            if case let .audio(level) = try decoder.decode(packet) { peaks.append(level.peakDBFS) }
        }
        // Packets are numbered in encode order. Those encoded after the pause, past the codec's one-frame
        // delay and overlap, carry only silence; those consumed before unpausing were all encoded while paused.
        try #require(peaks.count == all.count)
        let silent = peaks[(encodedAtPause + 3)..<(before.count + paused.count)]
        #expect(silent.count >= 20)
        #expect(silent.allSatisfy { $0 < -80 }, "paused peaks: \(Array(silent))")
        #expect(peaks.prefix(before.count).dropFirst(2).allSatisfy { $0 > -20 }, "the tone before pausing is audible")
    }

    @Test("requestKeyframe: the next encoded frame is an IDR")
    func requestKeyframe() async throws {
        let engine = try MediaEngine(EngineTestSupport.configuration(audio: nil))
        try engine.start()
        let first = await EngineTestSupport.collect(engine) { $0.count >= 5 }
        #expect(first.filter(\.isKeyframe).count == 1)
        engine.requestKeyframe()
        let next = await EngineTestSupport.collect(engine) { $0.contains(where: \.isKeyframe) || $0.count >= 10 }
        let keyframeArrived = next.contains { $0.isKeyframe }
        #expect(keyframeArrived, "no keyframe within 10 frames of the request (GOP is 60)")
        #expect(engine.stats.keyframesEncoded == 2)
        engine.stop()
    }

    @Test("a blocked consumer: the queue stays within its bound, video is dropped and counted, and resumes at a keyframe")
    func blockedConsumer() async throws {
        var configuration = EngineTestSupport.configuration()
        configuration.outputQueueCapacity = 12
        let engine = try MediaEngine(configuration)
        try engine.start()
        var maxDepth = 0
        let dropped = await EngineTestSupport.eventually {
            let stats = engine.stats
            maxDepth = max(maxDepth, stats.output?.depth ?? 0)
            return stats.drops.congestionVideoPackets >= 20
        }
        #expect(dropped)
        let stats = engine.stats
        #expect(maxDepth <= 12 && (stats.output?.highWater ?? .max) <= 12)
        #expect((stats.output?.bytes ?? .max) <= configuration.resolvedOutputQueueBytes)
        #expect((stats.output?.congestionEvents ?? 0) >= 1)
        #expect(stats.keyframesEncoded >= 2, "congestion requested keyframes")
        let resumed = await EngineTestSupport.collect(engine) { !$0.video.isEmpty }
        #expect(resumed.video.first?.isKeyframe == true, "after drops the consumer's first video packet is a keyframe: \(resumed.map { "\($0.kind == .video ? ($0.isKeyframe ? "K" : "P") : "a")\($0.decodeTimestamp)" })")
        engine.stop()
    }

    @Test("an engine released without stop() stops its threads and is freed")
    func releasedEngineStops() async throws {
        weak var released: MediaEngine?
        var packets: PacketStream?
        do {
            let engine = try MediaEngine(EngineTestSupport.configuration())
            try engine.start()
            released = engine
            packets = engine.packets
            _ = await EngineTestSupport.collect(engine) { $0.count >= 3 }
        }
        #expect(released == nil, "the threads must not keep the engine alive")
        var drained = 0
        if let packets { for await _ in packets { drained += 1 } }
        #expect(drained <= 120, "the stream ended when the engine went away")
    }

    @Test("start fails cleanly: a missing camera is reported and nothing keeps running")
    func missingCamera() throws {
        let engine = try MediaEngine(EngineTestSupport.configuration(video: .camera("/dev/video99")))
        #expect(throws: MediaError.deviceMissing(.camera, path: "/dev/video99")) { try engine.start() }
        #expect(!engine.stats.isRunning)
        #expect(throws: MediaError.alreadyStarted) { try engine.start() }
    }

    @Test("a Y4M clip and ALSA capture (file plugin) run through the engine; the clip is scaled to the configured size")
    func y4mAndALSA() async throws {
        let files = try TestFiles()
        let clip = try files.writeY4M("clip.y4m", width: 160, height: 120, frames: 10)
        let raw = try files.write("mic.raw", [UInt8](repeating: 0x10, count: 48_000 * 4 * 2))
        var configuration = EngineTestSupport.configuration(video: .y4mFile(clip.path), audio: .alsa("onairtest"))
        configuration.alsaConfiguration = DeviceCaptureTests.fileCaptureConfiguration(infile: raw)
        let engine = try MediaEngine(configuration)
        try engine.start()
        #expect(engine.stats.grantedVideo?.width == 160 && engine.stats.grantedVideo?.height == 120)
        #expect(engine.stats.audioFormat == AudioSourceFormat(sampleRate: 48_000, channels: 2))
        let packets = await EngineTestSupport.collect(engine) { $0.video.count >= 3 && $0.audio.count >= 3 }
        let track = try #require(engine.videoTrack)
        let decoder = try PacketDecoder(video: track, audio: nil, keepsFullFrames: true)
        if case let .picture(picture) = try decoder.decode(packets.video[0]) {
            #expect(picture.frame?.width == 320 && picture.frame?.height == 180)
        } else {
            Issue.record("the first Y4M packet did not decode")
        }
        engine.stop()
    }
}
