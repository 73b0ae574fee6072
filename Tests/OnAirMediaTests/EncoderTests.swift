import Foundation
import OnAirCore
import Testing
@testable import OnAirMedia

@Suite("encoders: keyframes on demand, AAC timing and round trip")
struct EncoderTests {
    @Test("a forced keyframe makes exactly that frame an IDR; the others in the GOP stay P-frames")
    func forcedKeyframe() throws {
        let encoder = try VideoEncoder(EncodeDecodeRoundTripTests.settings(width: 320, height: 180, bitrate: 500_000))
        let pattern = TestPattern(width: 320, height: 180, framesPerSecond: 30)
        var keyframes: [Bool] = []
        for index in 0..<12 {
            let packets = try encoder.encode(pattern.render(frameIndex: index), milliseconds: Int64(index * 33), forceKeyframe: index == 7)
            #expect(packets.count == 1)
            for packet in packets {
                keyframes.append(packet.isKeyframe)
                let types = AnnexB.nalTypes(packet.payload)
                #expect(types.contains(AnnexB.NALType.idrSlice.rawValue) == packet.isKeyframe, "keyframe flag and IDR NAL disagree: \(types)")
            }
        }
        #expect(keyframes == (0..<12).map { $0 == 0 || $0 == 7 })
    }

    @Test("the GOP is the keyframe interval: a keyframe every 2 s at 30 fps without forcing")
    func scheduledKeyframes() throws {
        let encoder = try VideoEncoder(EncodeDecodeRoundTripTests.settings(width: 160, height: 90, bitrate: 200_000))
        let pattern = TestPattern(width: 160, height: 90, framesPerSecond: 30)
        var keyIndices: [Int] = []
        for index in 0..<130 {
            for packet in try encoder.encode(pattern.render(frameIndex: index), milliseconds: Int64(index * 33), forceKeyframe: false)
            where packet.isKeyframe { keyIndices.append(index) }
        }
        #expect(keyIndices == [0, 60, 120])
    }

    @Test("AAC: the first packet (the priming) is stamped 1024 samples before the first sample, then every 1024 samples")
    func aacTimestamps() throws {
        let origin: UInt64 = 1_000_000_000
        let encoder = try AudioEncoder(sampleRate: 48_000, channels: 2, bitrate: 128_000, originNanoseconds: origin)
        #expect(encoder.track.audioSpecificConfig == [0x11, 0x90], "AAC-LC, 48 kHz, stereo")
        #expect(encoder.frameSize == 1024)
        let tone = try ToneSource(frequency: 1000, amplitude: 0.5, pacing: .unpaced)
        var packets: [EncodedPacket] = []
        for chunkIndex in 0..<47 {
            var chunk = try tone.read(frames: 1024)
            // 250 ms after the origin, on the shared clock.
            chunk.captureNanoseconds = origin + 250_000_000 + UInt64(chunkIndex) * 1024 * 1_000_000_000 / 48_000
            packets += try encoder.encode(chunk, muted: false)
        }
        packets += try encoder.flush()
        // 250 ms − 21.33 ms: the priming belongs before the first sample.
        #expect(packets.first?.decodeTimestamp == 228)
        for (index, packet) in packets.enumerated() {
            let nanoseconds = 250_000_000 + (Int64(index) - 1) * 1024 * 1_000_000_000 / 48_000
            #expect(packet.decodeTimestamp == nanoseconds / 1_000_000)
        }
        #expect(packets.count >= 47)
    }

    @Test("AAC round trip: a −6 dBFS-peak 1 kHz tone decodes at −9 dBFS RMS (±0.5 dB); paused audio decodes as silence")
    func aacRoundTripLevels() throws {
        let encoder = try AudioEncoder(sampleRate: 48_000, channels: 2, bitrate: 128_000, originNanoseconds: 0)
        let decoder = try PacketDecoder(video: nil, audio: encoder.track)
        let tone = try ToneSource(frequency: 1000, amplitude: 0.5, pacing: .unpaced)
        var levels: [PacketDecoder.AudioLevel] = []
        for chunkIndex in 0..<60 {
            let chunk = try tone.read(frames: 1024)
            for packet in try encoder.encode(chunk, muted: chunkIndex >= 30) {
                if case let .audio(level) = try decoder.decode(packet) { levels.append(level) }
            }
        }
        #expect(levels.count >= 55)
        let steady = levels[3..<25].map(\.rmsDBFS)
        #expect(steady.allSatisfy { abs($0 - -9.03) < 0.5 }, "tone levels: \(steady)")
        let silent = levels.suffix(20).map(\.peakDBFS)
        #expect(silent.allSatisfy { $0 < -80 }, "paused levels: \(silent)")
        #expect(decoder.counters.audioFramesDecoded == levels.count)
    }

    /// Issue 31: a chunk of whole AAC frames goes straight into the encoder's frame, any other through the FIFO.
    @Test("AAC: chunks of whole frames (straight in) and of any size (through the FIFO) give the same packets, per channel")
    func aacChunkingIsInvisible() throws {
        // Left and right differ (440 Hz loud, 1 kHz soft), so a swapped or smeared channel changes the bytes.
        let frames = 1024 * 12
        var samples = [Int16](repeating: 0, count: frames * 2)
        for frame in 0..<frames {
            let time = Double(frame) / 48_000
            samples[2 * frame] = Int16((sin(2 * .pi * 440 * time) * 12_000).rounded())
            samples[2 * frame + 1] = Int16((sin(2 * .pi * 1000 * time) * 3_000).rounded())
        }
        func encode(_ samples: [Int16], chunkFrames: [Int]) throws -> [[UInt8]] {
            let encoder = try AudioEncoder(sampleRate: 48_000, channels: 2, bitrate: 128_000, originNanoseconds: 0)
            var payloads: [[UInt8]] = []
            var start = 0
            for size in chunkFrames {
                let chunk = AudioChunk(
                    sampleRate: 48_000, channels: 2, samples: Array(samples[2 * start..<2 * (start + size)]), captureNanoseconds: 0)
                payloads += try encoder.encode(chunk, muted: false).map(\.payload)
                start += size
            }
            #expect(start == frames)
            return payloads + (try encoder.flush().map(\.payload))
        }
        let whole = try encode(samples, chunkFrames: Array(repeating: 1024, count: 12))
        let odd = try encode(samples, chunkFrames: [1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000, 1288])
        // Whole frames, then a leftover (FIFO), then whole frames again while the FIFO holds some.
        let mixed = try encode(samples, chunkFrames: [2048, 1024, 700, 1024, 1348, 3072, 3072])
        #expect(whole.count >= 12)
        // Compared as Bools: a failure prints which path differs, not every byte of every packet.
        let oddMatches = whole == odd, mixedMatches = whole == mixed
        #expect(oddMatches, "chunks of 1000 frames (all through the FIFO) encode differently")
        #expect(mixedMatches, "whole frames after a leftover encode differently")
        var swappedSamples = samples
        for frame in 0..<frames { swappedSamples.swapAt(2 * frame, 2 * frame + 1) }
        let swapped = try encode(swappedSamples, chunkFrames: Array(repeating: 1024, count: 12))
        let swappedDiffers = swapped != whole
        #expect(swappedDiffers, "the channels reach the encoder apart")
    }
}
