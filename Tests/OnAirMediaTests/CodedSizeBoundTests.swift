import OnAirCore
import OnAirTestSupport
import Testing
@testable import OnAirMedia

/// Issue 29 item 1, in the decoder: a cropped SPS must not hide a huge coded picture. The track's coded
/// size is checked before a decoder opens, and libavcodec's frame buffers are refused at `get_buffer2`
/// whatever SPS the slices refer to — in-band ones included, which no check before the decoder sees.
@Suite("Decoder bounds on the coded picture size")
struct CodedSizeBoundTests {
    @Test("a track shown 640×352 but coded 16368×8000 is refused before any decoder opens")
    func codedTrackRefused() throws {
        let (realTrack, _) = try PacketDecoderTests.packets()
        var hostile = realTrack
        (hostile.width, hostile.height) = (640, 352)
        (hostile.codedWidth, hostile.codedHeight) = (16368, 8000)
        hostile.sequenceParameterSets = [HostileSPS.croppedHuge()]
        let decoder = try PacketDecoder(video: nil, audio: nil)
        #expect(throws: MediaError.self) { try decoder.configureVideo(hostile) }
        do {
            try decoder.configureVideo(hostile)
        } catch {
            #expect("\(error)".contains("16368×8000"), "\(error)")
        }
    }

    @Test("with the SPS checks bypassed, libavcodec's frame buffers at 16368×8000 coded are refused at get_buffer2")
    func refusedAtGetBuffer() throws {
        let (realTrack, video) = try PacketDecoderTests.packets()
        // A track whose coded size nobody read (0: a parser that gave up) passes the checks before the
        // decoder, so the hostile SPS reaches libavcodec in the extradata: get_buffer2 is the last line.
        var hostile = realTrack
        (hostile.width, hostile.height) = (640, 352)
        hostile.sequenceParameterSets = [HostileSPS.croppedHuge(referenceFrames: 14)]
        let decoder = try PacketDecoder(video: hostile, audio: nil, keepsFullFrames: true)
        let units = AnnexB.nalUnits(video[0].payload).filter { ($0.first ?? 0) & 0x1F != 7 }
        var keyframe = video[0]
        keyframe.payload = AnnexB.join(units)
        var sizes: [String] = []
        for _ in 0..<3 {
            if case .picture(let picture)? = try? decoder.decode(keyframe) { sizes.append(picture.frame.map { "\($0.width)×\($0.height)" } ?? "?") }
        }
        if case .picture(let picture)? = try? decoder.drain() { sizes.append(picture.frame.map { "\($0.width)×\($0.height)" } ?? "?") }
        // Without the bound, libavcodec allocated each frame at 16368×8000 (196 MB) and showed it cropped.
        #expect(sizes.isEmpty, "decoded pictures: \(sizes)")
        // A sane stream decodes as before.
        let sane = try PacketDecoder(video: realTrack, audio: nil)
        var decoded = 0
        for packet in video.prefix(5) { if case .picture = try sane.decode(packet) { decoded += 1 } }
        #expect(decoded == 5)
    }
}
