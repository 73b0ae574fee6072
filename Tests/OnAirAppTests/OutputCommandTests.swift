import Foundation
import OnAirTestSupport
import Testing

/// Issue 30 (4): `reconnect N` names one destination of `onair publish URL URL …`, through the one gate
/// (`CommandRouter.perform`): output 2 reconnects at once while output 1 goes on untouched, and a number
/// that names no output is refused with the reason, as any refused command is (docs/refusals.md).
@Suite("output-addressed commands: reconnect N")
struct OutputCommandTests {
    @Test("reconnect 2 drops and republishes output 2 only; reconnect 5 and reconnect 0 are refused with the reason")
    func reconnectOneOutput() async throws {
        let servers = [try NginxRTMPServer(), try NginxRTMPServer()]
        let directory = try TemporaryDirectory()
        let pipe = Pipe()
        let publisher = try HeadlessRun.publishingToTwo(servers, in: directory, commands: pipe)
        let live = await publisher.waitFor(.seconds(120)) { event in
            event.kind == "output" && event.details["output"] as? Int == 2 && event.details["state"] as? String == "PUBLISHING"
        }
        #expect(live != nil, "output 2 never live: \(publisher.peer.standardOutput.suffix(2000))")
        #expect(await publisher.waitFor(.seconds(120)) { $0.kind == "state" && $0.details["status"] as? String == "PUBLISHING" } != nil)

        pipe.fileHandleForWriting.write(Data("reconnect 5\nreconnect 0\n".utf8))
        let five = await publisher.waitFor(.seconds(60)) { $0.kind == "error" && $0.text.hasPrefix("reconnect 5:") }
        #expect(five?.text == "reconnect 5: no output 5: this broadcast has outputs 1…2", "\(five?.text ?? "no refusal")")
        let zero = await publisher.waitFor(.seconds(60)) { $0.kind == "error" && $0.text.hasPrefix("reconnect 0:") }
        #expect(zero != nil, "reconnect 0 was not refused: \(publisher.peer.standardOutput.suffix(2000))")

        pipe.fileHandleForWriting.write(Data("reconnect 2\n".utf8))
        let now = await publisher.waitFor(.seconds(60)) { event in
            event.kind == "output" && event.details["output"] as? Int == 2 && event.text == "reconnect now"
        }
        #expect(now != nil, "output 2 did not reconnect: \(publisher.peer.standardOutput.suffix(2000))")
        let again = await publisher.waitFor(.seconds(120)) { event in
            event.kind == "output" && event.details["output"] as? Int == 2 && event.details["state"] as? String == "PUBLISHING"
                && event.time > (now?.time ?? .max)
        }
        #expect(again?.details["reconnects"] as? Int == 1, "output 2 not publishing again, or not counted: \(again.map { "\($0.details)" } ?? "none")")
        // Output 1 was not touched: the publisher's own connection never left PUBLISHING.
        let firstStates = publisher.events.events.filter { $0.kind == "state" }.compactMap { $0.details["status"] as? String }
        #expect(!firstStates.contains { $0.hasPrefix("RECONNECTING") }, "output 1 reconnected with output 2: \(firstStates)")
        #expect(firstStates.filter { $0 == "PUBLISHING" }.count == 1, "output 1 published again with output 2: \(firstStates)")
        pipe.fileHandleForWriting.write(Data("quit\n".utf8))
        #expect(await publisher.peer.exitStatus(within: .seconds(30)) == 0)
    }

    @Test("with one URL, reconnect 2 names no output")
    func oneURL() async throws {
        let server = try NginxRTMPServer()
        let directory = try TemporaryDirectory()
        let pipe = Pipe()
        let publisher = try HeadlessRun(
            ["publish", server.url(stream: "one"), "--headless", "--video", "test", "--audio", "test", "--size", "320x240", "--duration", "120"],
            in: directory, standardInput: pipe.fileHandleForReading)
        pipe.fileHandleForWriting.write(Data("reconnect 2\n".utf8))
        let refused = await publisher.waitFor(.seconds(60)) { $0.kind == "error" && $0.text.hasPrefix("reconnect 2:") }
        #expect(refused?.text == "reconnect 2: no output 2: this broadcast has one output (give more URLs to publish to several)",
            "\(refused?.text ?? "no refusal: \(publisher.peer.standardOutput.suffix(2000))")")
        pipe.fileHandleForWriting.write(Data("quit\n".utf8))
        #expect(await publisher.peer.exitStatus(within: .seconds(30)) == 0)
    }
}
