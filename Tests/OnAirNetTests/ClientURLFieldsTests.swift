import Foundation
import OnAirCore
@testable import OnAirNet
@testable import OnAirLink
import OnAirRTMP
import OnAirTestSupport
import Testing

/// Issue 32: what the clients send — `connect`'s command object (`tcUrl`, `app`, …) and the stream name of
/// `publish`/`play` — names the URL the operator gave, whether the socket goes straight to the server or
/// through the link stage (`RTMPClient.Configuration.route`), over rtmp:// and rtmps:// alike.
@Suite("Client URL fields through the link stage", .timeLimit(.minutes(2)))
struct ClientURLFieldsTests {
    enum Role: String, CaseIterable, Sendable { case publish, play }

    /// `key=value` pairs of an AMF0 object, for the printed record.
    static func fields(_ object: AMF0Value) -> String {
        guard case .object(let properties) = object else { return "\(object)" }
        return properties.map { property in
            switch property.value {
            case .string(let text): "\(property.key)=\(text)"
            case .number(let number): "\(property.key)=\(number)"
            case .boolean(let flag): "\(property.key)=\(flag)"
            default: "\(property.key)=…"
            }
        }.joined(separator: " ")
    }

    /// One client session (`publish` or `play`) to `url`, over `configuration`'s route.
    static func session(_ role: Role, url: StreamURL, configuration: RTMPClient.Configuration, server: ScriptedRTMPServer, number: Int) async throws {
        switch role {
        case .publish:
            let publisher = RTMPPublisher(url: url, configuration: configuration)
            try await publisher.start(video: nil, audio: nil)
            await publisher.stop()
        case .play:
            let player = RTMPPlayer(url: url, configuration: configuration)
            try await player.start()
            _ = await server.commands(named: RTMPCommand.Name.play, count: number)
            await player.stop()
        }
    }

    @Test("connect and publish/play are identical through the stage and direct, and name the operator's URL",
          arguments: Role.allCases, [false, true])
    func fieldsNameTheOperatorsURL(role: Role, tls: Bool) async throws {
        let directory = try TemporaryDirectory(prefix: "onair-url-fields")
        var configuration = RTMPClient.Configuration()
        var certificate: TestCertificateAuthority.ServerCertificate?
        if tls {
            let authority = try TestCertificateAuthority(name: "OnAir URL Test CA", in: directory)
            certificate = try authority.issueServerCertificate()
            configuration.tls = try RTMPTLSConfiguration(caFile: authority.certificateFile.path)
        }
        let server = try ScriptedRTMPServer(certificateFile: certificate?.certificateFile.path, keyFile: certificate?.keyFile.path)
        defer { server.stop() }
        let url = try StreamURL("\(tls ? "rtmps" : "rtmp")://127.0.0.1:\(server.port)/live/cam1?token=abc")

        try await Self.session(role, url: url, configuration: configuration, server: server, number: 1)
        let stage = try LinkImpairment(targetHost: "127.0.0.1", targetPort: server.port)
        defer { stage.stop() }
        var staged = configuration
        staged.route = RTMPClient.Route(host: "127.0.0.1", port: stage.port)
        try await Self.session(role, url: url, configuration: staged, server: server, number: 2)

        #expect(stage.counters.connectionsAccepted == 1, "the second session did not go through the stage")
        let connects = await server.commands(named: RTMPCommand.Name.connect, count: 2)
        let streams = await server.commands(named: role.rawValue, count: 2)
        try #require(connects.count == 2 && streams.count == 2)
        // The recorded objects, for the report (issue 32's must-show).
        for (path, index) in [("direct", 0), ("staged", 1)] {
            print("\(role.rawValue) \(tls ? "rtmps" : "rtmp") \(path): connect \(Self.fields(connects[index].commandObject)); \(role.rawValue) \(streams[index].arguments.compactMap(\.stringValue))")
        }
        #expect(connects[0].commandObject["tcUrl"]?.stringValue == "\(tls ? "rtmps" : "rtmp")://127.0.0.1:\(server.port)/live")
        #expect(connects[1] == connects[0], "through the stage: \(connects[1]); direct: \(connects[0])")
        #expect(streams[1] == streams[0])
        #expect(streams[0].arguments.first?.stringValue == "cam1?token=abc")
    }
}
