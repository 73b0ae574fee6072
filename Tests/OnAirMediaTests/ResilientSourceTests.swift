import Glibc
import OnAirCore
import Synchronization
import Testing
@testable import OnAirMedia

/// The sources that survive their devices (docs/devices.md): the substitute pictures and silence, their
/// timestamps, and the reopen after a device error.
@Suite("resilient sources: slate, freeze, black, silence, reopen")
struct ResilientSourceTests {
    /// A video source that fails its reads while `failing` says so: a camera unplugged.
    final class FlakySource: VideoSource {
        let requested = VideoSourceFormat(width: 320, height: 180, framesPerSecond: 30, pixelFormat: "flaky")
        let granted = VideoSourceFormat(width: 320, height: 180, framesPerSecond: 30, pixelFormat: "flaky")
        let skippedFrames = 0
        var reads = 0
        let failing: () -> Bool
        init(failing: @escaping () -> Bool) { self.failing = failing }
        func read() throws -> VideoFrame {
            if failing() { throw MediaError.notACaptureDevice(path: "/dev/flaky", reason: "ENODEV") }
            reads += 1
            return VideoFrame(width: 320, height: 180, captureNanoseconds: MonotonicClock.now(), sequenceNumber: reads)
        }
    }

    /// Counts `EngineControl`'s device observer calls: one per loss, failed reopen and return.
    final class ObserverCalls: Sendable {
        let count = Atomic(0)
        init(_ control: EngineControl) {
            control.deviceObserver.withLock { $0 = { [self] in count.add(1, ordering: .relaxed) } }
        }
        var value: Int { count.load(ordering: .relaxed) }
    }

    static func marker(_ frame: VideoFrame) -> FrameMarker? {
        frame.withUnsafePictureBytes { planes in
            FrameMarker.read(luma: UnsafeBufferPointer(rebasing: planes[0..<frame.lumaCount]), stride: frame.width, width: frame.width, height: frame.height)
        }
    }

    static func isSlate(_ frame: VideoFrame) -> Bool {
        frame.withUnsafePictureBytes { planes in
            CameraSlate.isSlate(
                luma: UnsafeBufferPointer(rebasing: planes[0..<frame.lumaCount]), stride: frame.width, width: frame.width, height: frame.height)
        }
    }

    @Test("camera-lost on the pattern: slate pictures with the live marker, timestamps and numbers going on; camera-back: the pattern again", arguments: [CameraLossFill.slate, .freeze, .black])
    func operatorTakesThePattern(fill: CameraLossFill) throws {
        let control = EngineControl(originNanoseconds: MonotonicClock.now())
        let source = try ResilientVideoSource(
            open: { try TestPatternSource(width: 320, height: 180, framesPerSecond: 30, pacing: .unpaced) }, isDevice: false,
            fill: fill, control: control, width: 320, height: 180, framesPerSecond: 30, pacing: .unpaced)
        let told = ObserverCalls(control)
        var frames = try (0..<5).map { _ in try source.read() }
        #expect(!frames.contains(where: Self.isSlate))
        #expect(told.value == 0)
        control.cameraTaken.store(true, ordering: .relaxed)
        let lost = try (0..<5).map { _ in try source.read() }
        #expect(told.value == 1, "the loss is told once")
        frames += lost
        var expected = DeviceStatus(device: .camera, available: false, reason: "operator", substitute: fill.rawValue, losses: 1)
        expected.format = "320x180@30 test pattern"
        #expect(control.camera.withLock { $0.status } == expected)
        switch fill {
        case .slate:
            #expect(lost.allSatisfy(Self.isSlate))
            let marker = Self.marker(lost[0])
            #expect(marker?.frameNumber == 5, "the slate carries the marker, numbered on from the last picture")
        case .freeze:
            #expect(lost.allSatisfy { $0.planes == frames[4].planes })
        case .black:
            #expect(lost.allSatisfy { $0.planes == VideoFrame(width: 320, height: 180).planes })
        }
        control.cameraTaken.store(false, ordering: .relaxed)
        let back = try (0..<3).map { _ in try source.read() }
        frames += back
        #expect(!back.contains(where: Self.isSlate))
        #expect(control.camera.withLock { $0.status.available })
        #expect(told.value == 2, "the return is told once")
        #expect(zip(frames, frames.dropFirst()).allSatisfy { $0.captureNanoseconds < $1.captureNanoseconds }, "timestamps advance")
        #expect(zip(frames, frames.dropFirst()).allSatisfy { $0.sequenceNumber < $1.sequenceNumber })
    }

    @Test("a device that fails is lost with its error, the slate flows at the frame rate, a failed reopen backs off, and it comes back")
    func deviceErrorReopens() throws {
        let control = EngineControl(originNanoseconds: MonotonicClock.now())
        nonisolated(unsafe) var unplugged = false
        nonisolated(unsafe) var opens = 0
        let source = try ResilientVideoSource(
            open: {
                opens += 1
                if unplugged { throw MediaError.deviceMissing(.camera, path: "/dev/flaky") }
                return FlakySource { unplugged }
            }, isDevice: true, fill: .slate, control: control, width: 320, height: 180, framesPerSecond: 30, pacing: .realTime)
        let told = ObserverCalls(control)
        _ = try source.read()
        unplugged = true
        let started = MonotonicClock.now()
        var slates = 0
        while control.camera.withLock({ $0.status.failedReopens }) == 0 {
            #expect(Self.isSlate(try source.read()))
            slates += 1
            try #require(MonotonicClock.now() - started < 60_000_000_000, "no reopen attempt")
        }
        let status = control.camera.withLock { $0.snapshot(now: MonotonicClock.now()) }
        #expect(status.reason?.contains("no camera at /dev/flaky") == true)
        #expect((1_500...2_000).contains(status.retryInMilliseconds ?? 0), "the second try is 2 s after the first: \(status)")
        #expect(slates >= 25, "about 30 slates a second while waiting: \(slates)")
        unplugged = false
        while !control.camera.withLock({ $0.status.available }) {
            _ = try source.read()
            try #require(MonotonicClock.now() - started < 60_000_000_000, "never came back")
        }
        #expect(opens == 3, "the first open, a failed reopen, the reopen that worked")
        #expect(told.value == 3, "told of the loss, the failed reopen and the return")
        #expect(!Self.isSlate(try source.read()))
    }

    @Test("a clip truncated while it plays is lost with its error, the slate flows, and the shorter clip plays on")
    func truncatedClipReopens() throws {
        let files = try TestFiles()
        let clip = try files.writeY4M("clip.y4m", width: 320, height: 180, frames: 4)
        let control = EngineControl(originNanoseconds: MonotonicClock.now())
        let source = try ResilientVideoSource(
            open: { try Y4MFileSource(path: clip.path, pacing: .realTime) }, isDevice: false, fill: .slate, control: control,
            width: 320, height: 180, framesPerSecond: 30, pacing: .realTime)
        #expect(try source.read().planes == clip.frames[0])
        // Two whole frames are left: the rest of the third is cut.
        let record = 6 + VideoFrame.byteCount(width: 320, height: 180)
        let header = Array("YUV4MPEG2 W320 H180 F30:1 Ip A1:1 C420jpeg\n".utf8).count
        #expect(truncate(clip.path, off_t(header + 2 * record + 1000)) == 0)
        #expect(try source.read().planes == clip.frames[1])
        let started = MonotonicClock.now()
        var slates = 0
        var frame = try source.read()
        while Self.isSlate(frame) {
            slates += 1
            frame = try source.read()
            try #require(MonotonicClock.now() - started < 60_000_000_000, "the clip never came back")
        }
        #expect(slates > 0, "the cut frame was delivered")
        let status = control.camera.withLock { $0.status }
        #expect(status.losses == 1 && status.available)
        #expect(frame.planes == clip.frames[0], "reopened, the clip plays from its first frame")
        #expect(try source.read().planes == clip.frames[1])
        #expect(try source.read().planes == clip.frames[0], "and loops over the two frames left")
    }

    @Test("mic-lost: silence of the source's format on the clock; mic-back: the tone, with the reopen's time filled so samples equal time")
    func microphone() throws {
        let control = EngineControl(originNanoseconds: MonotonicClock.now())
        let source = try ResilientAudioSource(
            open: { try ToneSource(sampleRate: 48_000, channels: 2, pacing: .realTime) }, isDevice: false, control: control, pacing: .realTime)
        let told = ObserverCalls(control)
        let start = MonotonicClock.now()
        var frames = 0
        for _ in 0..<5 { frames += try source.read(frames: 1024).frameCount }
        control.microphoneTaken.store(true, ordering: .relaxed)
        for _ in 0..<10 {
            let chunk = try source.read(frames: 1024)
            #expect(chunk.samples.allSatisfy { $0 == 0 } && chunk.channels == 2 && chunk.sampleRate == 48_000)
            frames += chunk.frameCount
        }
        #expect(control.microphone.withLock { $0.status.substitute } == "silence")
        #expect(told.value == 1, "the loss is told once")
        control.microphoneTaken.store(false, ordering: .relaxed)
        let back = try source.read(frames: 1024)
        #expect(told.value == 2, "the return is told once")
        frames += back.frameCount
        #expect(back.samples.contains { $0 != 0 }, "the tone again")
        let elapsed = Double(MonotonicClock.now() - start) / 1e9
        #expect(abs(Double(frames) / 48_000 - elapsed) < 0.05, "\(frames) frames in \(elapsed) s")
    }

    @Test("a WAV file truncated while it plays is lost with its error, silence flows, and the shorter file plays on")
    func truncatedWAVReopens() throws {
        let files = try TestFiles()
        let samples = (0..<(48_000 * 2)).map { Int16(truncatingIfNeeded: 1000 + $0 % 500) } // 1 s of stereo, never 0
        let path = try files.writeWAV("voice.wav", sampleRate: 48_000, channels: 2, samples: samples)
        let control = EngineControl(originNanoseconds: MonotonicClock.now())
        let source = try ResilientAudioSource(
            open: { try WAVFileSource(path: path, pacing: .realTime) }, isDevice: false, control: control, pacing: .realTime)
        #expect(try source.read(frames: 1024).samples.allSatisfy { $0 != 0 })
        #expect(truncate(path, 44 + 4 * 2048) == 0) // 2048 frames are left, the first 1024 already played
        _ = try source.read(frames: 1024)
        let started = MonotonicClock.now()
        var silent = 0
        var chunk = try source.read(frames: 1024)
        while chunk.samples.allSatisfy({ $0 == 0 }) {
            silent += 1
            chunk = try source.read(frames: 1024)
            try #require(MonotonicClock.now() - started < 60_000_000_000, "the file never came back")
        }
        #expect(silent > 0, "samples past the cut were delivered")
        let status = control.microphone.withLock { $0.status }
        #expect(status.losses == 1 && status.available && status.reason?.contains("shrank while playing") == true)
    }
}
