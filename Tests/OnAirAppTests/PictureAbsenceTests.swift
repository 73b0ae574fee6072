import OnAirCore
import Testing
@testable import OnAirControl

/// Where the subscriber's picture would be: "no frame yet" only while a picture may still come; an audio-only
/// stream or video OnAir does not decode says so instead (a flow table on the facts, as packets arrive).
@Suite("the subscriber says why no picture will come")
struct PictureAbsenceTests {
    enum Step { case metadata(video: Bool), undecodableVideo, videoPacket, audioPacket, newPublish }

    static let flows: [(String, [Step], StreamTelemetry.PictureAbsence?)] = [
        ("nothing yet", [], nil),
        ("audio-only metadata", [.metadata(video: false), .audioPacket], .audioOnly),
        ("metadata with video", [.metadata(video: true), .audioPacket], nil),
        ("audio-only metadata, then a video packet after all", [.metadata(video: false), .videoPacket], nil),
        ("audio-only metadata, then a new publisher's metadata with video", [.metadata(video: false), .newPublish, .metadata(video: true)], nil),
        ("Sorenson H.263 video", [.metadata(video: true), .undecodableVideo, .audioPacket], .videoNotDecoded),
        ("undecodable video outranks audio-only metadata", [.undecodableVideo, .metadata(video: false)], .videoNotDecoded),
        ("a new publisher clears it", [.undecodableVideo, .newPublish], nil),
        ("H.264 after an undecodable codec", [.undecodableVideo, .videoPacket], nil),
    ]

    @Test("each flow ends with the reason it names", arguments: flows)
    func flow(name: String, steps: [Step], expected: StreamTelemetry.PictureAbsence?) {
        var facts = SubscriberMediaFacts()
        var time: Int64 = 0
        for step in steps {
            time += 33
            let now = SessionTime(milliseconds: time)
            switch step {
            case .metadata(let video): facts.metadata(announcesVideo: video)
            case .undecodableVideo: facts.undecodable(kind: .video, bytes: 900, timestamp: time)
            case .videoPacket: _ = facts.packet(EncodedPacket(kind: .video, decodeTimestamp: time, isKeyframe: true, payload: [0, 0, 0, 1, 0x65]), at: now)
            case .audioPacket: _ = facts.packet(EncodedPacket(kind: .audio, decodeTimestamp: time, isKeyframe: true, payload: [1, 2]), at: now)
            case .newPublish: facts.newPublishSession()
            }
        }
        #expect(facts.pictureAbsence == expected, "\(name)")
    }
}
