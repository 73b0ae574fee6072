import Foundation

/// A real nginx-rtmp started for one test on a free loopback port, from the config in Fixtures/.
final class NginxRTMPServer: @unchecked Sendable {
    let port: Int
    let prefix: URL
    private let peer: PeerProcess

    init(directory: URL) async throws {
        port = try TestEnvironment.freePort()
        prefix = directory.appendingPathComponent("nginx")
        try FileManager.default.createDirectory(at: prefix, withIntermediateDirectories: true)
        guard let template = Bundle.module.url(forResource: "nginx-rtmp", withExtension: "conf", subdirectory: "Fixtures") else {
            throw CocoaError(.fileNoSuchFile)
        }
        let config = try String(contentsOf: template, encoding: .utf8)
            .replacingOccurrences(of: "@PREFIX@", with: prefix.path)
            .replacingOccurrences(of: "@PORT@", with: "\(port)")
        let configURL = prefix.appendingPathComponent("nginx.conf")
        try config.write(to: configURL, atomically: true, encoding: .utf8)
        peer = try PeerProcess("nginx", [
            "-p", prefix.path, "-c", configURL.path, "-e", prefix.appendingPathComponent("error.log").path, "-g", "daemon off;",
        ], directory: prefix)
        guard await TestEnvironment.waitUntilListening(port: port) else {
            peer.stop()
            throw CocoaError(.fileReadUnknown)
        }
    }

    func url(_ name: String) -> String { "rtmp://127.0.0.1:\(port)/live/\(name)" }

    func stop() { peer.stop(signal: SIGTERM) }
}
