import Foundation
import OnAirRTMP
import OnAirTestSupport
import Testing

/// Issue 32 through the real binary: `onair publish` goes through the link stage by default, and the demo's
/// subscriber through one of its own; `connect`'s `tcUrl` and `app` and the stream name still name the URL
/// the operator gave, exactly as with `--direct` and `--check`, which dial the server straight.
@Suite("The wire names the operator's URL", .serialized, .timeLimit(.minutes(3)))
struct WireURLFieldsTests {
    /// Runs `arguments` (the URL appended by the caller) until the scripted server has recorded `count`
    /// commands named `name`, then stops the run; returns the recorded `connect`s.
    static func connects(_ arguments: [String], server: ScriptedRTMPServer, until name: String, count: Int = 1) async throws -> [RTMPCommand] {
        let directory = try TemporaryDirectory(prefix: "onair-wire-url")
        let run = try HeadlessRun(arguments, in: directory)
        let seen = await server.commands(named: name, count: count, within: .seconds(60))
        _ = run.peer.stop()
        try #require(seen.count >= count, "no \(name) within the time limit: \(run.peer.standardError)")
        return await server.commands(named: RTMPCommand.Name.connect)
    }

    @Test("publish through the stage, publish --direct and publish --check send the same connect, naming the server")
    func publishPaths() async throws {
        let server = try ScriptedRTMPServer()
        defer { server.stop() }
        let url = "rtmp://127.0.0.1:\(server.port)/live/mv?k=1"
        let common = ["--headless", "--size", "160x90", "--fps", "10", "--duration", "30"]
        _ = try await Self.connects(["publish", url] + common, server: server, until: "publish", count: 1)
        _ = try await Self.connects(["publish", url, "--direct"] + common, server: server, until: "publish", count: 2)
        let connects = await server.commands(named: RTMPCommand.Name.connect, count: 2)
        try #require(connects.count == 2)
        #expect(connects[0].commandObject["tcUrl"]?.stringValue == "rtmp://127.0.0.1:\(server.port)/live",
                "through the stage, tcUrl named \(connects[0].commandObject["tcUrl"]?.stringValue ?? "nothing")")
        #expect(connects[0] == connects[1])
        let streams = server.received.filter { $0.name == "publish" }.map { $0.arguments.first?.stringValue }
        #expect(streams == ["mv?k=1", "mv?k=1"])

        _ = try await Self.connects(["publish", url, "--check", "--headless"], server: server, until: "play", count: 1)
        let checkConnects = await server.commands(named: RTMPCommand.Name.connect, count: 3)
        #expect(checkConnects.count >= 3)
        for connect in checkConnects { #expect(connect == connects[0]) }
    }

    @Test("the demo's subscriber, through its own stage, names the server in connect")
    func demoSubscriber() async throws {
        let server = try ScriptedRTMPServer()
        defer { server.stop() }
        let url = "rtmp://127.0.0.1:\(server.port)/live/demo1"
        let connects = try await Self.connects(
            ["demo", "--headless", "--server", url, "--size", "160x90", "--fps", "10", "--duration", "30"],
            server: server, until: "play", count: 1)
        let tcURLs = Set(connects.compactMap { $0.commandObject["tcUrl"]?.stringValue })
        #expect(tcURLs == ["rtmp://127.0.0.1:\(server.port)/live"])
    }
}
