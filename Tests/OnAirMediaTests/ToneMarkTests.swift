import OnAirCore
import Testing
@testable import OnAirMedia

@Suite("the tone's once-a-second gap: written by the tone, found after AAC")
struct ToneMarkTests {
    @Test("the gap silences exactly the samples in the first 10 ms of a wall-clock second")
    func silencing() {
        var samples = [Int16](repeating: 1000, count: 2 * 1000)
        // 48 kHz: sample n is at 999_995 µs + n × 20.83 µs, so the second starts at sample 1 (0.2 µs late).
        ToneSource.silenceMarks(in: &samples, channels: 2, sampleRate: 48_000, firstSampleWall: 1_795_000_000_999_995)
        let silent = (0..<1000).filter { samples[$0 * 2] == 0 }
        #expect(silent.first == 1)
        #expect(silent.count == 480, "10 ms at 48 kHz")
        #expect(silent.allSatisfy { samples[$0 * 2 + 1] == 0 })
    }

    /// The AAC encoder's 1024 samples of priming stay before timestamp 0 (issue 26), so decoded audio is where
    /// its timestamps say: the gap is found where it was written, not 21.3 ms later.
    @Test("a gap in a tone encoded to AAC 128k and decoded is found within 2 ms of where it was", arguments: [0.3, 0.55, 0.97])
    func throughAAC(gapAtSeconds: Double) throws {
        let tone = try ToneSource(frequency: 440, amplitude: 0.25, pacing: .unpaced)
        let encoder = try AudioEncoder(sampleRate: 48_000, channels: 2, bitrate: 128_000, originNanoseconds: 0)
        let decoder = try PacketDecoder(video: nil, audio: encoder.track)
        var found: [Double] = []
        let gapStart = Int(gapAtSeconds * 48_000)
        for chunkIndex in 0..<60 {
            var chunk = try tone.read(frames: 1024)
            chunk.captureNanoseconds = UInt64(chunkIndex) * 1024 * 1_000_000_000 / 48_000
            let first = chunkIndex * 1024
            for frame in 0..<1024 where (gapStart..<(gapStart + 480)).contains(first + frame) {
                chunk.samples[frame * 2] = 0
                chunk.samples[frame * 2 + 1] = 0
            }
            for packet in try encoder.encode(chunk, muted: false) {
                if case let .audio(level) = try decoder.decode(packet), let mark = level.toneMarkMilliseconds { found.append(mark) }
            }
        }
        let expected = gapAtSeconds * 1000
        print("tone mark: gap at \(expected) ms found at \(found)")
        #expect(found.count == 1, "found \(found)")
        #expect(found.allSatisfy { abs($0 - expected) <= 2 }, "found \(found), gap at \(expected) ms")
    }
}
