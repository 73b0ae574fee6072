import Foundation
import OnAirCore
import Testing
@testable import OnAirMedia

@Suite("encode → decode round trip")
struct EncodeDecodeRoundTripTests {
    static func settings(width: Int = 640, height: Int = 360, bitrate: Int = 2_500_000) -> VideoEncoder.Settings {
        VideoEncoder.Settings(
            width: width, height: height, framesPerSecond: 30, bitrate: bitrate, keyframeIntervalSeconds: 2,
            preset: "ultrafast", tune: "zerolatency", threads: 1)
    }

    @Test("60 test-pattern frames at 640x360 2500k decode to 60 frames of the same size with PSNR above 30 dB")
    func videoRoundTrip() throws {
        let encoder = try VideoEncoder(Self.settings())
        let pattern = TestPattern(width: 640, height: 360, framesPerSecond: 30)
        let decoder = try PacketDecoder(video: encoder.track, audio: nil, keepsFullFrames: true)
        var originals: [Int64: VideoFrame] = [:]
        var psnrs: [Double] = []
        var packets = 0
        for index in 0..<60 {
            let frame = pattern.render(frameIndex: index)
            let milliseconds = Int64(index) * 1000 / 30
            originals[milliseconds] = frame
            for packet in try encoder.encode(frame, milliseconds: milliseconds, forceKeyframe: false) {
                packets += 1
                #expect(packet.kind == .video)
                if case let .picture(picture) = try decoder.decode(packet), let decoded = picture.frame {
                    #expect(decoded.width == 640 && decoded.height == 360)
                    #expect(picture.preview.width == 128 && picture.preview.height == 72)
                    if let original = originals[picture.decodeTimestamp] { psnrs.append(Quality.psnr(original, decoded)) }
                }
            }
        }
        #expect(packets == 60, "zerolatency without B-frames: one packet per frame, no delay")
        #expect(psnrs.count == 60)
        let minimum = psnrs.min() ?? 0
        let mean = psnrs.reduce(0, +) / Double(max(psnrs.count, 1))
        print("video round trip 640x360 2500k: min PSNR \(minimum) dB, mean \(mean) dB")
        #expect(minimum > 30)
        #expect(decoder.counters.videoFramesDecoded == 60)
    }

    @Test("the test pattern keeps PSNR above 30 dB at other sizes and rates", arguments: [
        (1280, 720, 2_500_000), (320, 180, 300_000),
    ])
    func psnrAcrossSizes(width: Int, height: Int, bitrate: Int) throws {
        let encoder = try VideoEncoder(Self.settings(width: width, height: height, bitrate: bitrate))
        let pattern = TestPattern(width: width, height: height, framesPerSecond: 30)
        let decoder = try PacketDecoder(video: encoder.track, audio: nil, keepsFullFrames: true)
        var psnrs: [Double] = []
        for index in 0..<30 {
            let frame = pattern.render(frameIndex: index)
            for packet in try encoder.encode(frame, milliseconds: Int64(index * 33), forceKeyframe: false) {
                if case let .picture(picture) = try decoder.decode(packet), let decoded = picture.frame {
                    psnrs.append(Quality.psnr(frame, decoded))
                }
            }
        }
        #expect(psnrs.count == 30)
        print("video round trip \(width)x\(height) \(bitrate / 1000)k: min PSNR \(psnrs.min() ?? 0) dB")
        #expect((psnrs.min() ?? 0) > 30)
    }

    @Test("harder content: ffmpeg's testsrc2 clip read through the Y4M source keeps PSNR above 30 dB at 640x360 2500k")
    func psnrOfMovingClip() throws {
        let files = try TestFiles()
        let path = files.path("testsrc2.y4m")
        try files.ffmpeg(["-f", "lavfi", "-i", "testsrc2=size=640x360:rate=30", "-frames:v", "60", "-pix_fmt", "yuv420p", "-y", path])
        let source = try Y4MFileSource(path: path, pacing: .unpaced)
        let encoder = try VideoEncoder(Self.settings())
        let decoder = try PacketDecoder(video: encoder.track, audio: nil, keepsFullFrames: true)
        var psnrs: [Double] = []
        for index in 0..<60 {
            let frame = try source.read()
            for packet in try encoder.encode(frame, milliseconds: Int64(index * 33), forceKeyframe: false) {
                if case let .picture(picture) = try decoder.decode(packet), let decoded = picture.frame {
                    psnrs.append(Quality.psnr(frame, decoded))
                }
            }
        }
        #expect(psnrs.count == 60)
        let mean = psnrs.reduce(0, +) / Double(max(psnrs.count, 1))
        print("video round trip testsrc2 640x360 2500k: min PSNR \(psnrs.min() ?? 0) dB, mean \(mean) dB")
        #expect((psnrs.min() ?? 0) > 30)
    }

    @Test("the track description carries bare SPS/PPS NAL units, and the first packet is an IDR")
    func trackDescription() throws {
        let encoder = try VideoEncoder(Self.settings())
        let track = encoder.track
        #expect(track.sequenceParameterSets.count == 1)
        #expect(track.pictureParameterSets.count == 1)
        #expect(track.sequenceParameterSets[0].first.map { $0 & 0x1F } == 7)
        #expect(track.pictureParameterSets[0].first.map { $0 & 0x1F } == 8)
        #expect(track.sequenceParameterSets[0][1] == 66, "ultrafast encodes Constrained Baseline (profile_idc 66)")
        let packets = try encoder.encode(TestPattern(width: 640, height: 360, framesPerSecond: 30).render(frameIndex: 0), milliseconds: 0, forceKeyframe: false)
        #expect(packets.first?.isKeyframe == true)
        let firstPayload = packets.first?.payload ?? []
        #expect(AnnexB.nalTypes(firstPayload).contains(AnnexB.NALType.idrSlice.rawValue))
    }
}
