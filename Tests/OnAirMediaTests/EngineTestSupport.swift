import OnAirCore
@testable import OnAirMedia

/// Helpers for engine tests: conditions are polled with a generous safety-net timeout, never asserted on time.
enum EngineTestSupport {
    /// A small, cheap live configuration: 320x180 test pattern + tone.
    static func configuration(
        video: VideoSourceSpec? = .testPattern, audio: AudioSourceSpec? = .tone(frequency: 440)
    ) -> MediaEngineConfiguration {
        MediaEngineConfiguration(
            video: video, audio: audio, width: 320, height: 180, framesPerSecond: 30, videoBitrate: 400_000,
            audioBitrate: 96_000, encoderThreads: 1, previewFramesPerSecond: 30)
    }

    /// Polls `condition` every 10 ms; false only if it never held within `seconds` (a hang, not slowness).
    static func eventually(within seconds: Double = 60, _ condition: () -> Bool) async -> Bool {
        let deadline = MonotonicClock.now() + UInt64(seconds * 1e9)
        while MonotonicClock.now() < deadline {
            if condition() { return true }
            try? await Task.sleep(nanoseconds: 10_000_000)
        }
        return condition()
    }

    /// Reads packets until `done` says enough (or the stream ends).
    static func collect(_ engine: MediaEngine, until done: ([EncodedPacket]) -> Bool) async -> [EncodedPacket] {
        var packets: [EncodedPacket] = []
        for await packet in engine.packets {
            packets.append(packet)
            if done(packets) { break }
        }
        return packets
    }
}

extension Array where Element == EncodedPacket {
    var video: [EncodedPacket] { filter { $0.kind == .video } }
    var audio: [EncodedPacket] { filter { $0.kind == .audio } }
    var strictlyIncreasing: Bool { zip(self, dropFirst()).allSatisfy { $0.decodeTimestamp < $1.decodeTimestamp } }
}
