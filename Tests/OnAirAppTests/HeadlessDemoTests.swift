import Foundation
import OnAirTestSupport
import Testing

/// `onair demo --headless`: the embedded relay, a publisher and a subscriber, driven from stdin.
@Suite("headless demo through the embedded relay")
struct HeadlessDemoTests {
    @Test("call → Publish Background; decline → Tap to Re-Publish!; tap → both live again; sub home → decoding skipped; sub return → decoding resumes")
    func testbedFlowAndSubscriberBackground() async throws {
        let directory = try TemporaryDirectory()
        let pipe = Pipe()
        // The run ends on `quit`; --duration only in case it does not (was 60 s for a ~15 s flow; issue 24).
        let demo = try HeadlessRun(
            ["demo", "--headless", "--size", "320x180", "--record-dir", directory.file("rec").path, "--duration", "300"],
            in: directory, standardInput: pipe.fileHandleForReading
        )
        func send(_ line: String) { pipe.fileHandleForWriting.write(Data((line + "\n").utf8)) }
        func state(_ side: String, _ key: String, _ value: Any, after time: Int64 = -1) async -> HeadlessRun.Event? {
            await demo.waitFor { event in
                event.side == side && event.kind == "state" && event.time > time
                    && "\(event.details[key] ?? "")" == "\(value)"
            }
        }

        let live = await state("publisher", "status", "PUBLISHING")
        #expect(live != nil, "never live: \(demo.peer.standardError)")
        #expect(await state("subscriber", "connection", "PLAYING") != nil)

        send("call")
        #expect(await demo.waitFor { $0.side == "subscriber" && $0.kind == "toast" && $0.text == "Publish Background" } != nil)
        send("decline")
        let declined = await demo.waitFor { $0.side == "publisher" && $0.kind == "toast" && $0.text == "Tap to Re-Publish!" }
        #expect(declined != nil)
        #expect(await state("subscriber", "publisherIsDisconnected", 1) != nil, "the subscriber did not see the publisher go")
        send("tap")
        let back = await state("publisher", "status", "PUBLISHING", after: declined?.time ?? 0)
        #expect(back != nil, "no republish after the tap")
        #expect(await state("subscriber", "publisherIsDisconnected", 0, after: declined?.time ?? 0) != nil, "the subscriber did not come back")

        send("sub home")
        let hidden = await state("subscriber", "renderActive", 0)
        #expect(hidden != nil, "sub home did not pause rendering")
        let skipping = await demo.waitFor { event in
            event.side == "subscriber" && event.kind == "stats" && event.time > (hidden?.time ?? .max)
                && (event.details["skippedWhilePaused"] as? Int ?? 0) > 0
        }
        #expect(skipping != nil, "video was not skipped while the subscriber was in the background")
        send("sub return")
        #expect(await state("subscriber", "renderActive", 1, after: hidden?.time ?? 0) != nil)
        send("quit")
        #expect(await demo.peer.exitStatus(within: .seconds(60)) == 0, "\(demo.peer.standardError)")
        #expect(demo.events.malformed.isEmpty)
    }
}
