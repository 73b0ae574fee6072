import Foundation
import OnAirCore
import OnAirTestSupport
import Testing

@testable import OnAirApp

/// The summary printed on exit (issue 28, problem 11): every play of the subscriber's loop, and only the
/// recordings this run wrote.
@Suite("session summary: loop plays and this run's recordings")
struct SessionSummaryTests {
    static func subscriber(plays: Int) -> SubscriberAppState {
        var state = SubscriberAppState(streamName: "s", redactedURL: "rtmp://127.0.0.1/live/s")
        state.reconnectAttempts = plays
        return state
    }

    @Test("loops that end and start again count every play: 1, 2, back, 1, 2, 3 is five plays")
    func loopPlaysAddUp() {
        var summary = SessionSummary()
        for (index, plays) in [0, 1, 1, 2, 0, 1, 2, 3, 0].enumerated() {
            summary.observe(publisher: nil, subscriber: Self.subscriber(plays: plays), bytesSent: nil,
                            at: SessionTime(milliseconds: Int64(index) * 1000))
        }
        #expect(summary.subscriberReconnects == 5)
        #expect(summary.lines(at: SessionTime(milliseconds: 9000))[0].hasSuffix("subscriber played again 5 times"))
    }

    @Test("a recording that was there before the run began, written a moment before, is not listed")
    func onlyThisRunsRecordings() throws {
        let directory = try TemporaryDirectory()
        let old = directory.url.appendingPathComponent("previous.flv")
        try Data(repeating: 1, count: 100).write(to: old)
        var summary = SessionSummary()
        summary.recordDirectory = directory.url.path
        try Data(repeating: 2, count: 50).write(to: directory.url.appendingPathComponent("stream1.flv"))
        let lines = summary.lines(at: SessionTime(milliseconds: 1000))
        #expect(lines.count == 2)
        #expect(lines[1].contains("stream1.flv (50 B)"))
        #expect(!lines[1].contains("previous.flv"))
    }
}
