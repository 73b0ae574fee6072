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

    @Test("a keyframe whose in-band SPS codes 16368×8000 cropped to 640×352 never gets a frame buffer")
    func inBandCroppedRefusedAtGetBuffer() throws {
        let (track, video) = try PacketDecoderTests.packets()
        let decoder = try PacketDecoder(video: track, audio: nil, keepsFullFrames: true)
        // The keyframe's own SPS (if x264 repeated it) is replaced: the hostile one is what its slices use.
        let units = AnnexB.nalUnits(video[0].payload).filter { ($0.first ?? 0) & 0x1F != 7 }
        var keyframe = video[0]
        keyframe.payload = AnnexB.join([HostileSPS.croppedHuge(referenceFrames: 14)] + units)
        var pictures: [PacketDecoder.DecodedPicture] = []
        for _ in 0..<3 {
            if case .picture(let picture)? = try? decoder.decode(keyframe) { pictures.append(picture) }
        }
        if case .picture(let picture)? = try? decoder.drain() { pictures.append(picture) }
        // Before the bound, libavcodec allocated each frame at 16368×8000 (196 MB) and showed it cropped.
        #expect(pictures.isEmpty, "decoded \(pictures.count) pictures of \(pictures.first?.frame.map { "\($0.width)×\($0.height)" } ?? "?")")
        // The decoder still decodes a sane stream afterwards.
        let sane = try PacketDecoder(video: track, audio: nil)
        var decoded = 0
        for packet in video.prefix(5) { if case .picture = try sane.decode(packet) { decoded += 1 } }
        #expect(decoded == 5)
    }
}
