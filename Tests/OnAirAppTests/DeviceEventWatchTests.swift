import OnAirCore
import OnAirMedia
import Testing
@testable import OnAirControl

/// `DeviceEventWatch`: a track the engine stopped is said once, as an `error` line, never left in a counter.
@Suite("device events: a stopped track is reported once")
struct DeviceEventWatchTests {
    @Test("a track failure becomes one error event; the same failure again says nothing, a new one is reported")
    func trackFailureReportedOnce() throws {
        var watch = DeviceEventWatch()
        let statuses = [DeviceStatus(device: .camera), DeviceStatus(device: .microphone)]
        _ = watch.events(for: statuses, at: SessionTime(milliseconds: 0))
        #expect(watch.events(for: statuses, trackFailure: nil, at: SessionTime(milliseconds: 500)).isEmpty)
        let first = watch.events(for: statuses, trackFailure: "video: avcodec_send_frame(libx264) failed", at: SessionTime(milliseconds: 1000))
        let line = try #require(first.first?.headless)
        #expect(first.count == 1 && line.kind == "error")
        #expect(line.details["text"] == .string(
            "media video: avcodec_send_frame(libx264) failed; that track has stopped and the broadcast goes on without it: publish again to restart it"))
        #expect(watch.events(for: statuses, trackFailure: "video: avcodec_send_frame(libx264) failed", at: SessionTime(milliseconds: 2000)).isEmpty)
        let next = watch.events(for: statuses, trackFailure: "audio: avcodec_send_frame(aac) failed", at: SessionTime(milliseconds: 3000))
        #expect(next.count == 1)
    }
}
