import Foundation
import OnAirTestSupport
import Testing

/// The issue's own reproduction, headless: after `stop` the publisher's `stats` say what the wire carries.
@Suite("headless publisher figures from the wire")
struct HeadlessWireFiguresTests {
    @Test("after stop, the publisher's bitrate and fps are 0 within 2 s while the encoder's own rate is reported apart")
    func figuresFallAfterStop() async throws {
        let directory = try TemporaryDirectory()
        let pipe = Pipe()
        // The test quits the run; --duration only in case it does not (was 40 s; issue 24).
        let demo = try HeadlessRun(
            ["demo", "--headless", "--size", "320x180", "--record-dir", directory.file("rec").path, "--duration", "300"],
            in: directory, standardInput: pipe.fileHandleForReading
        )
        func stats(after time: Int64, _ predicate: @escaping ([String: Any]) -> Bool) async -> HeadlessRun.Event? {
            await demo.waitFor { $0.side == "publisher" && $0.kind == "stats" && $0.time > time && predicate($0.details) }
        }
        let sending = await stats(after: -1) { ($0["bitrate"] as? Int ?? 0) > 50_000 && ($0["fps"] as? Double ?? 0) > 10 }
        #expect(sending != nil, "the wire never carried the stream: \(demo.peer.standardError)")
        let sent = sending?.details["bytesSent"] as? Int ?? 0
        #expect(sent > 0)

        pipe.fileHandleForWriting.write(Data("stop\n".utf8))
        let stopped = await demo.waitFor { $0.side == "publisher" && $0.kind == "state" && $0.details["status"] as? String == "IDLE" }
        #expect(stopped != nil)
        let stopTime = stopped?.time ?? 0
        // Every stats event 2 s or more after the stop reads 0 on the wire, while the encoder keeps encoding.
        let later = await stats(after: stopTime + 2000) { _ in true }
        #expect(later?.details["bitrate"] as? Int == 0, "bitrate 2 s after stop: \(String(describing: later?.details))")
        #expect(later?.details["fps"] as? Double == 0)
        #expect((later?.details["encoderBitrate"] as? Int ?? 0) > 0, "the encoder's own rate is reported apart")
        #expect(later?.details["onAirMs"] == nil, "no time on air after a stop")
        pipe.fileHandleForWriting.write(Data("quit\n".utf8))
        demo.peer.stop()
    }
}
