import Foundation
import OnAirTestSupport
import Testing

/// Issue 30 (4): `output-stop N` / `output-start N` take one destination of `onair publish URL URL …` off the
/// broadcast and put it back, through the one gate (`CommandRouter.perform`), while output 1 goes on
/// untouched; a number that names no output, output 1 (the broadcast's own) and a stop of a stopped output
/// are refused with the reason.
@Suite("output-addressed commands: output-stop N / output-start N")
struct OutputControlTests {
    @Test("output-stop 2 ends output 2's publish (STOPPED, the server loses it) and output-start 2 brings it back; output 1 never leaves PUBLISHING")
    func stopAndStartOneOutput() async throws {
        let servers = [try NginxRTMPServer(), try NginxRTMPServer()]
        let directory = try TemporaryDirectory()
        let pipe = Pipe()
        let publisher = try HeadlessRun.publishingToTwo(servers, in: directory, commands: pipe)
        func outputEvent(after time: Int64 = 0, _ predicate: @escaping (HeadlessRun.Event) -> Bool) async -> HeadlessRun.Event? {
            await publisher.waitFor(.seconds(120)) { $0.kind == "output" && $0.details["output"] as? Int == 2 && $0.time > time && predicate($0) }
        }
        let live = await outputEvent { $0.details["state"] as? String == "PUBLISHING" }
        try #require(live != nil, "output 2 never live: \(publisher.peer.standardOutput.suffix(2000))")
        #expect(await publisher.waitFor(.seconds(120)) { $0.kind == "state" && $0.details["status"] as? String == "PUBLISHING" } != nil)

        pipe.fileHandleForWriting.write(Data("output-stop 2\n".utf8))
        let stopped = await outputEvent { $0.text == "stopped" }
        #expect(stopped?.details["state"] as? String == "IDLE", "output 2 did not stop: \(publisher.peer.standardOutput.suffix(2000))")
        let stats = await publisher.waitFor(.seconds(60)) { event in
            event.kind == "outputStats" && event.details["output"] as? Int == 2 && event.time > (stopped?.time ?? .max)
        }
        #expect(stats?.details["state"] as? String == "STOPPED", "\(stats.map { "\($0.details)" } ?? "no outputStats")")
        // The server lost the publish: nothing plays there now.
        #expect(try await DemoOutputsTests.videoPackets(at: servers[1].url(stream: "two"), in: directory) == 0, "server B still carries output 2")

        pipe.fileHandleForWriting.write(Data("output-stop 2\nreconnect 2\noutput-stop 1\noutput-start 3\n".utf8))
        let twice = await publisher.waitFor(.seconds(60)) { $0.kind == "error" && $0.text.hasPrefix("output-stop 2:") }
        #expect(twice?.text == "output-stop 2: output 2 is already stopped (output-start 2 puts it back)", "\(twice?.text ?? "no refusal")")
        let reconnect = await publisher.waitFor(.seconds(60)) { $0.kind == "error" && $0.text.hasPrefix("reconnect 2:") }
        #expect(reconnect?.text == "reconnect 2: output 2 is stopped (output-start 2 puts it back)", "\(reconnect?.text ?? "no refusal")")
        let first = await publisher.waitFor(.seconds(60)) { $0.kind == "error" && $0.text.hasPrefix("output-stop 1:") }
        #expect(first?.text.contains("publisher's own connection") == true, "\(first?.text ?? "no refusal")")
        let none = await publisher.waitFor(.seconds(60)) { $0.kind == "error" && $0.text.hasPrefix("output-start 3:") }
        #expect(none?.text == "output-start 3: no output 3: this broadcast has outputs 1…2", "\(none?.text ?? "no refusal")")

        // Link commands naming an output are understood and refused: the link stage is output 1's only.
        pipe.fileHandleForWriting.write(Data("link-down 2\n".utf8))
        let link = await publisher.waitFor(.seconds(60)) { $0.kind == "error" && $0.text.hasPrefix("link-down 2:") }
        #expect(link?.text == "link-down 2: output 2 has no link stage: it stands in front of output 1 only (link-down without a number)",
                "\(link?.text ?? "no refusal")")

        pipe.fileHandleForWriting.write(Data("output-start 2\n".utf8))
        let again = await outputEvent(after: stopped?.time ?? 0) { $0.details["state"] as? String == "PUBLISHING" }
        #expect(again != nil, "output 2 never published again: \(publisher.peer.standardOutput.suffix(2000))")
        #expect(try await DemoOutputsTests.videoPackets(at: servers[1].url(stream: "two"), in: directory) > 10, "server B does not carry output 2 again")
        pipe.fileHandleForWriting.write(Data("output-start 2\n".utf8))
        let notStopped = await publisher.waitFor(.seconds(60)) { $0.kind == "error" && $0.text.hasPrefix("output-start 2:") }
        #expect(notStopped?.text.hasPrefix("output-start 2: output 2 was not stopped") == true, "\(notStopped?.text ?? "no refusal")")

        // Output 1 was not touched: the publisher's own connection published once and never left.
        let firstStates = publisher.events.events.filter { $0.kind == "state" }.compactMap { $0.details["status"] as? String }
        #expect(firstStates.filter { $0 == "PUBLISHING" }.count == 1 && !firstStates.contains { $0.hasPrefix("RECONNECTING") },
                "output 1 moved with output 2: \(firstStates)")
        pipe.fileHandleForWriting.write(Data("quit\n".utf8))
        #expect(await publisher.peer.exitStatus(within: .seconds(30)) == 0)
    }
}
