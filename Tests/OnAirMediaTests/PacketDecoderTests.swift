import OnAirCore
import Testing
@testable import OnAirMedia

@Suite("subscriber decoder: renderPaused skips video and resumes at a keyframe")
struct PacketDecoderTests {
    /// 90 frames at 30 fps with a one-second GOP: keyframes at 0, 30, 60.
    static func packets() throws -> (VideoTrackDescription, [EncodedPacket]) {
        var settings = EncodeDecodeRoundTripTests.settings(width: 160, height: 90, bitrate: 300_000)
        settings.keyframeIntervalSeconds = 1
        let encoder = try VideoEncoder(settings)
        let pattern = TestPattern(width: 160, height: 90, framesPerSecond: 30)
        var packets: [EncodedPacket] = []
        for index in 0..<90 {
            packets += try encoder.encode(pattern.render(frameIndex: index), milliseconds: Int64(index * 33), forceKeyframe: false)
        }
        return (encoder.track, packets)
    }

    @Test("paused video packets are counted, not decoded; after resume decoding waits for the next keyframe")
    func renderPausedSkipsAndResumesAtKeyframe() throws {
        let (track, packets) = try Self.packets()
        #expect(packets.indices.filter { packets[$0].isKeyframe } == [0, 30, 60])
        let decoder = try PacketDecoder(video: track, audio: nil, previewWidth: 32, previewHeight: 18)
        var pictures = 0
        for (index, packet) in packets.enumerated() {
            if index == 10 { decoder.renderPaused = true }
            if index == 40 { decoder.renderPaused = false }
            if case let .picture(picture) = try decoder.decode(packet) {
                pictures += 1
                #expect(picture.preview.width == 32 && picture.preview.rgb.count == 32 * 18 * 3)
                #expect(picture.frame == nil)
            }
        }
        let counters = decoder.counters
        #expect(counters.videoPacketsReceived == 90)
        #expect(counters.videoSkippedWhilePaused == 30)
        #expect(counters.videoSkippedAwaitingKeyframe == 20, "frames 40–59 wait for the keyframe at 60")
        #expect(counters.videoFramesDecoded == 40)
        #expect(pictures == 40)
    }

    @Test("the preview of a decoded test pattern shows the bars: the top-left is light grey, the bar order is right")
    func previewColours() throws {
        let (track, packets) = try Self.packets()
        let decoder = try PacketDecoder(video: track, audio: nil, previewWidth: 14, previewHeight: 8)
        guard case let .picture(picture) = try decoder.decode(packets[0]) else {
            Issue.record("the first keyframe produced no picture")
            return
        }
        let preview = picture.preview
        // Bars left to right: white, yellow, cyan, green, magenta, red, blue (75 %); 2 preview columns per bar,
        // in the top fifth of the picture (preview row 0 of 8).
        let white = preview.pixel(x: 0, y: 0), yellow = preview.pixel(x: 2, y: 0), blue = preview.pixel(x: 13, y: 0)
        let red = preview.pixel(x: 11, y: 0)
        #expect(white.red > 160 && white.green > 160 && white.blue > 160)
        #expect(yellow.red > 150 && yellow.green > 150 && yellow.blue < 60)
        #expect(red.red > 150 && red.green < 60 && red.blue < 60)
        #expect(blue.blue > 150 && blue.red < 60 && blue.green < 60)
    }
}
