import Testing
@testable import OnAirMedia

@Suite("frame markers: the frame number and capture instant in the picture")
struct FrameMarkerTests {
    @Test("blocks round-trip", arguments: [
        FrameMarker(frameNumber: 0, clock: .wallMicroseconds(0)),
        FrameMarker(frameNumber: 1, clock: .streamMicroseconds(33_333)),
        FrameMarker(frameNumber: 16_777_215, clock: .wallMicroseconds(FrameMarker.timeModulus - 1)),
        FrameMarker(frameNumber: 12_345, clock: .wallMicroseconds(1_795_000_000_123_456 % FrameMarker.timeModulus)),
        FrameMarker(frameNumber: 999, clock: .streamMicroseconds(3_600_000_000)),
    ])
    func roundTrip(marker: FrameMarker) {
        let blocks = marker.blocks
        #expect(blocks.count == FrameMarker.blockCount)
        #expect(blocks[0] && !blocks[1], "white then black sync blocks")
        #expect(FrameMarker(blocks: blocks) == marker)
    }

    @Test("the frame number and the time wrap at their field widths")
    func wrapping() {
        #expect(FrameMarker(frameNumber: 16_777_216 + 5, clock: .wallMicroseconds(0)).frameNumber == 5)
        #expect(FrameMarker(frameNumber: 0, clock: .wallMicroseconds(FrameMarker.timeModulus + 7)).clock == .wallMicroseconds(7))
    }

    @Test("any single flipped block is rejected", arguments: Array(0..<FrameMarker.blockCount))
    func singleFlip(index: Int) {
        var blocks = FrameMarker(frameNumber: 4242, clock: .wallMicroseconds(98_765_432_101)).blocks
        blocks[index].toggle()
        #expect(FrameMarker(blocks: blocks) == nil)
    }

    @Test("the wrong number of blocks, or all black / all white, is no marker")
    func notAMarker() {
        #expect(FrameMarker(blocks: []) == nil)
        #expect(FrameMarker(blocks: [Bool](repeating: false, count: FrameMarker.blockCount)) == nil)
        #expect(FrameMarker(blocks: [Bool](repeating: true, count: FrameMarker.blockCount)) == nil)
        #expect(FrameMarker(blocks: Array(FrameMarker(frameNumber: 1, clock: .wallMicroseconds(1)).blocks.dropLast())) == nil)
    }

    @Test("a truncated wall time unwraps to the instant nearest the reader's now", arguments: [
        (UInt64(1_795_000_000_000_000), UInt64(1_795_000_000_000_000) - 40_000),
        (UInt64(1_795_000_000_000_000), UInt64(1_795_000_000_000_000) + 40_000),
        // Just after the field wrapped: the capture was before the wrap, the reader after it.
        (UInt64(1_795_000_000_000_000) / FrameMarker.timeModulus * FrameMarker.timeModulus + 10, UInt64(1_795_000_000_000_000) / FrameMarker.timeModulus * FrameMarker.timeModulus - 50_000),
    ])
    func unwrap(now: UInt64, capture: UInt64) {
        #expect(FrameMarker.unwrap(capture % FrameMarker.timeModulus, near: now) == capture)
    }

    @Test("the test pattern carries its frame number, and the stream time when no capture instant is given")
    func patternCarriesMarker() {
        let pattern = TestPattern(width: 640, height: 360, framesPerSecond: 30)
        let frame = pattern.render(frameIndex: 90)
        let marker = frame.planes.withUnsafeBufferPointer { FrameMarker.read(luma: $0, stride: 640, width: 640, height: 360) }
        #expect(marker == FrameMarker(frameNumber: 90, clock: .streamMicroseconds(3_000_000)))
        let live = pattern.render(frameIndex: 7, wallMicroseconds: 1_795_000_000_123_456)
        let liveMarker = live.planes.withUnsafeBufferPointer { FrameMarker.read(luma: $0, stride: 640, width: 640, height: 360) }
        #expect(liveMarker == FrameMarker(frameNumber: 7, clock: .wallMicroseconds(1_795_000_000_123_456)))
    }

    @Test("a picture without the block row reads as no marker")
    func noMarkerInPlainPicture() {
        let black = VideoFrame(width: 640, height: 360)
        #expect(black.planes.withUnsafeBufferPointer { FrameMarker.read(luma: $0, stride: 640, width: 640, height: 360) } == nil)
    }

    /// The preview leaves the marker's band out; in a picture no taller than the band (4 rows, under 180 tall)
    /// that left libswscale a source 0 rows tall, and every such frame was a decode error (FuzzPacketDecoder's seed).
    @Test("a picture no taller than the marker's band still previews, its marker read", arguments: [(160, 4), (320, 4), (320, 8)])
    func pictureAsTallAsTheBand(width: Int, height: Int) throws {
        let encoder = try VideoEncoder(EncodeDecodeRoundTripTests.settings(width: width, height: height, bitrate: 2_000_000))
        let decoder = try PacketDecoder(video: encoder.track, audio: nil, previewWidth: 16, previewHeight: 2)
        var read: [UInt32] = []
        for index in 0..<3 {
            var frame = VideoFrame(width: width, height: height)
            let marker = FrameMarker(frameNumber: UInt32(index), clock: .streamMicroseconds(UInt64(index) * 33_333))
            frame.planes.withUnsafeMutableBufferPointer { marker.draw(into: $0, width: width, height: height) }
            for packet in try encoder.encode(frame, milliseconds: Int64(index * 33), forceKeyframe: false) {
                guard case let .picture(picture) = try decoder.decode(packet) else { continue }
                #expect(picture.preview.rgb.count == 16 * 2 * 3)
                read += picture.marker.map { [$0.frameNumber] } ?? []
            }
        }
        #expect(read == [0, 1, 2])
    }

    /// The encoder scales a picture of another size (libswscale, bilinear) before x264, as it does for a camera.
    @Test("markers survive x264 ultrafast at 300 kbit/s, at 720p and scaled by the encoder to 854x480 and 640x360", arguments: [
        (1280, 720), (854, 480), (640, 360),
    ])
    func survivesEncoder(width: Int, height: Int) throws {
        let encoder = try VideoEncoder(EncodeDecodeRoundTripTests.settings(width: width, height: height, bitrate: 300_000))
        let decoder = try PacketDecoder(video: encoder.track, audio: nil)
        let pattern = TestPattern(width: 1280, height: 720, framesPerSecond: 30)
        var read: [UInt32] = []
        var pictures = 0
        let base: UInt64 = 1_795_000_000_000_000
        for index in 0..<60 {
            let wall = base + UInt64(index) * 33_333
            let frame = pattern.render(frameIndex: index, wallMicroseconds: wall)
            for packet in try encoder.encode(frame, milliseconds: Int64(index * 33), forceKeyframe: false) {
                guard case let .picture(picture) = try decoder.decode(packet) else { continue }
                pictures += 1
                if let marker = picture.marker {
                    read.append(marker.frameNumber)
                    #expect(marker.clock == .wallMicroseconds((base + UInt64(marker.frameNumber) * 33_333) % FrameMarker.timeModulus))
                }
            }
        }
        #expect(pictures == 60)
        #expect(read == Array(0..<60), "every decoded picture's marker reads, in order")
    }
}
