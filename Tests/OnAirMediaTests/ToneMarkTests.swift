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

    /// The per-sample rule the search must match bit for bit: sample `f` is silenced when its instant's place in
    /// its second is under the gap.
    static func silencedBySample(count: Int, channels: Int, sampleRate: Double, firstSampleWall: UInt64) -> [Int16] {
        var samples = [Int16](repeating: 7, count: count)
        for frame in 0..<(count / channels) {
            let wall = firstSampleWall + UInt64(Double(frame) * 1e6 / sampleRate)
            guard wall % 1_000_000 < ToneSource.markGapMicroseconds else { continue }
            for channel in 0..<channels { samples[frame * channels + channel] = 0 }
        }
        return samples
    }

    @Test("the gap's samples found by search are the per-sample rule's, at any start, rate, length and channel count")
    func searchMatchesPerSampleRule() {
        var generator = SystemRandomNumberGenerator()
        let rates: [Double] = [8_000, 11_025, 22_050, 44_100, 48_000, 96_000]
        // Starts just before, at and inside a gap, and anywhere; lengths from one sample to over two seconds.
        var cases: [(frames: Int, channels: Int, rate: Double, wall: UInt64)] = [
            (1, 1, 48_000, 1_000_000), (1, 2, 48_000, 999_999), (1024, 2, 48_000, 1_795_000_000_999_995),
            (1024, 2, 48_000, 1_795_000_001_009_990), (100_000, 2, 44_100, 3_999_990), (2048, 1, 8_000, 0),
        ]
        for _ in 0..<300 {
            let rate = rates.randomElement(using: &generator)!
            let second = UInt64.random(in: 0...2_000_000_000, using: &generator) * 1_000_000
            let wall = second + (Bool.random(using: &generator)
                ? UInt64.random(in: 0..<1_000_000, using: &generator)
                : [0, 1, 9_999, 10_000, 999_990, 999_999].randomElement(using: &generator)!)
            cases.append((Int.random(in: 1...5000, using: &generator), Int.random(in: 1...2, using: &generator), rate, wall))
        }
        for (frames, channels, rate, wall) in cases {
            // A stereo buffer ends with half a frame, which stays as it is.
            var samples = [Int16](repeating: 7, count: frames * channels + (channels - 1))
            ToneSource.silenceMarks(in: &samples, channels: channels, sampleRate: rate, firstSampleWall: wall)
            let expected = Self.silencedBySample(count: samples.count, channels: channels, sampleRate: rate, firstSampleWall: wall)
            #expect(samples == expected, "\(frames) frames × \(channels) at \(rate) Hz from \(wall) µs")
            if samples != expected { return }
        }
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
