import NIOCore
import OnAirCore
@testable import OnAirNet
import OnAirRTMP
import OnAirTestSupport
import Testing

/// Issue 29 item 1, in the player: the coded (uncropped) size of every SPS is what counts, wherever the
/// SPS arrives — in the sequence header, as a second SPS of the record, or in-band inside a keyframe.
@Suite("Player demuxer against cropped hostile SPS")
struct HostileSPSDemuxerTests {
    static let pps: [UInt8] = [0x68, 0xCE, 0x3C, 0x80]

    static func incoming(_ message: RTMPMessage, at timestamp: UInt32 = 0) -> RTMPClient.Incoming {
        RTMPClient.Incoming(message: message, timestamp: timestamp, messageStreamID: 1)
    }

    @Test("the hostile SPS parses as 640×352 shown and 16368×8000 coded")
    func parsesCodedSize() throws {
        let sps = try #require(H264SequenceParameterSet(HostileSPS.croppedHuge()))
        #expect((sps.width, sps.height) == (640, 352))
        #expect((sps.codedWidth, sps.codedHeight) == (16368, 8000))
        #expect(!PictureBound.fits(width: sps.codedWidth, height: sps.codedHeight))
    }

    @Test("a sequence header's track carries the largest coded size of all its SPS (a repeated id included)",
          arguments: [false, true])
    func sequenceHeaderCodedSize(repeatedID: Bool) throws {
        var demuxer = RTMPPlayerDemuxer()
        let sane = HostileSPS.make(widthInMacroblocks: 40, heightInMacroblocks: 22)
        let sets = repeatedID ? [sane, HostileSPS.croppedHuge()] : [HostileSPS.croppedHuge()]
        let record = try AVCDecoderConfigurationRecord(sequenceParameterSets: sets, pictureParameterSets: [Self.pps])
        let events = demuxer.handle(Self.incoming(.video(FLVVideoTag.sequenceHeader(record))))
        guard case .videoTrack(let track)? = events.first else {
            Issue.record("no track: \(events)")
            return
        }
        #expect((track.codedWidth, track.codedHeight) == (16368, 8000))
        #expect(!PictureBound.fits(width: track.codedWidth, height: track.codedHeight))
    }

    @Test("a packet with an in-band SPS over the bound is dropped, with one notice however often it comes")
    func inBandDropped() {
        var demuxer = RTMPPlayerDemuxer()
        let slice: [UInt8] = [0x65, 0x88, 0x84, 0x00]
        let hostile = EncodedPacket(kind: .video, decodeTimestamp: 0, isKeyframe: true,
                                    payload: AnnexB.join([HostileSPS.croppedHuge(), Self.pps, slice]))
        let first = demuxer.handle(Self.incoming(.video(FLVVideoTag.frame(hostile))))
        #expect(first.count == 1)
        if case .notice(let text)? = first.first {
            #expect(text.contains("16368×8000"))
        } else {
            Issue.record("expected one notice, got \(first)")
        }
        #expect(demuxer.handle(Self.incoming(.video(FLVVideoTag.frame(hostile)), at: 40)).isEmpty)
        // A packet whose in-band SPS fits passes as before.
        let fine = EncodedPacket(kind: .video, decodeTimestamp: 80, isKeyframe: true,
                                 payload: AnnexB.join([HostileSPS.make(widthInMacroblocks: 40, heightInMacroblocks: 22), Self.pps, slice]))
        #expect(demuxer.handle(Self.incoming(.video(FLVVideoTag.frame(fine)), at: 80)) == [.packet(fine)])
    }
}
