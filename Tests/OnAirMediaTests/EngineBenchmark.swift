import Foundation
import OnAirCore
import Testing
@testable import OnAirMedia

/// The engine half of `scripts/bench.d/engine.sh`: runs only when the script sets ONAIR_BENCH_Y4M.
///
/// Encodes the benchmark clip unpaced (as `ffmpeg … -f null` does) through the real engine: Y4M source,
/// capture thread, handoff, libswscale, libx264, output queue, consumer. The script measures CPU time and
/// peak RSS around this process with `/usr/bin/time -v`; this test checks every frame was encoded.
@Suite("engine benchmark")
struct EngineBenchmark {
    static let environment = ProcessInfo.processInfo.environment

    @Test("encodes ONAIR_BENCH_SECONDS of the clip at 1280x720 30 fps, 2500k CBR, with no frame lost",
          .enabled(if: environment["ONAIR_BENCH_Y4M"] != nil))
    func encodeClip() async throws {
        let clip = try #require(Self.environment["ONAIR_BENCH_Y4M"])
        let seconds = Double(Self.environment["ONAIR_BENCH_SECONDS"] ?? "20") ?? 20
        let configuration = MediaEngineConfiguration(
            video: .y4mFile(clip), audio: nil, width: 1280, height: 720, framesPerSecond: 30, videoBitrate: 2_500_000,
            previewFramesPerSecond: 0, pacing: .unpaced)
        let engine = try MediaEngine(configuration)
        let target = Int(seconds * 30)
        let started = MonotonicClock.now()
        try engine.start()
        var frames = 0
        var bytes = 0
        for await packet in engine.packets where packet.kind == .video {
            frames += 1
            bytes += packet.payload.count
            if frames == target { break }
        }
        let wall = Double(MonotonicClock.now() - started) / 1e9
        let stats = engine.stats
        engine.stop()
        #expect(frames == target)
        #expect(stats.drops.total == 0, "drops: \(stats.drops)")
        let line = "ONAIR_BENCH {\"frames\":\(frames),\"streamSeconds\":\(seconds),\"wallSeconds\":\(wall),"
            + "\"encodeFps\":\(Double(frames) / wall),\"bitrate\":\(Double(bytes * 8) / seconds),"
            + "\"encodeMsPerFrame\":\(stats.encodeMillisecondsPerFrame),\"threads\":\(configuration.resolvedEncoderThreads)}"
        print(line)
    }
}
