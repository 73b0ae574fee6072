import Foundation
import NIOCore
import OnAirControl
import OnAirCore
@testable import OnAirNet
import OnAirRTMP
import Testing

/// `onMetaData` is the publisher's to write: a number there may be NaN, ±infinity or 1e300. The player's
/// demuxer turned `videodatarate`, `audiodatarate`, `width` and `height` into `Int` with `Int(_:)`, which
/// traps on those, so one data message ended the subscriber; and a NaN made JSONEncoder throw, which lost
/// the whole headless event.
@Suite("Hostile metadata numbers")
struct HostileMetadataTests {
    static let hostile: [Double] = [.nan, .infinity, -.infinity, 1e300, -1e300, -5, 3e12]

    static func incoming(_ message: RTMPMessage) -> RTMPClient.Incoming {
        RTMPClient.Incoming(message: message, timestamp: 0, messageStreamID: 1)
    }

    /// A track from a sequence header whose SPS does not parse, so the size comes from the metadata too.
    static func videoTrack(after metadata: AMF0Value) throws -> VideoTrackDescription? {
        var demuxer = RTMPPlayerDemuxer()
        _ = demuxer.handle(incoming(.data(RTMPDataMessage(handler: "onMetaData", arguments: [metadata]))))
        let record = try AVCDecoderConfigurationRecord(sequenceParameterSets: [[0x67, 0x42, 0xC0, 0x1E]], pictureParameterSets: [[0x68, 0xCE, 0x3C, 0x80]])
        for event in demuxer.handle(incoming(.video(FLVVideoTag.sequenceHeader(record)))) {
            if case .videoTrack(let track) = event { return track }
        }
        return nil
    }

    @Test("a video track reads a hostile number as 0, not a trap", arguments: hostile)
    func videoTrack(value: Double) throws {
        let metadata = AMF0Value.ecmaArray([
            "width": .number(value), "height": .number(value), "framerate": .number(value), "videodatarate": .number(value),
        ])
        let track = try #require(try Self.videoTrack(after: metadata))
        #expect(track.width == 0 && track.height == 0 && track.bitrate == 0 && track.framesPerSecond == 0)
    }

    @Test("sane numbers still come through")
    func saneNumbers() throws {
        let metadata = AMF0Value.ecmaArray([
            "width": .number(640), "height": .number(360), "framerate": .number(30), "videodatarate": .number(2500),
        ])
        let track = try #require(try Self.videoTrack(after: metadata))
        #expect(track.width == 640 && track.height == 360 && track.framesPerSecond == 30 && track.bitrate == 2_500_000)
    }

    @Test("an audio track reads a hostile audiodatarate as 0", arguments: hostile)
    func audioTrack(value: Double) {
        var demuxer = RTMPPlayerDemuxer()
        let metadata = AMF0Value.ecmaArray(["audiodatarate": .number(value)])
        _ = demuxer.handle(Self.incoming(.data(RTMPDataMessage(handler: "onMetaData", arguments: [metadata]))))
        let events = demuxer.handle(Self.incoming(.audio(FLVAudioTag.sequenceHeader(audioSpecificConfig: [0x12, 0x10]))))
        guard case .audioTrack(let track)? = events.first else {
            Issue.record("no audio track: \(events)")
            return
        }
        #expect(track.bitrate == 0)
    }

    @Test("a metadata event with a non-finite number still encodes, the number as null",
          arguments: [Double.nan, .infinity, -.infinity])
    func headlessJSON(value: Double) throws {
        let fields: [String: MetadataValue] = ["videodatarate": .number(value), "width": .number(640)]
        let encoded = try JSONEncoder().encode(MetadataValue.object(fields).json)
        let text = String(decoding: encoded, as: UTF8.self)
        #expect(text.contains("\"videodatarate\":null") && text.contains("\"width\":640"), "\(text)")
    }
}
