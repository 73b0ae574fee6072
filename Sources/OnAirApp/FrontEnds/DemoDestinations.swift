import Foundation
import OnAirControl
import OnAirCore
import OnAirMedia
import OnAirNet
import OnAirRelay

/// Where the demo's one broadcast goes (issue 30): output 1 — the embedded relay or the first `--server`,
/// which the subscriber plays — and outputs 2…N: every further `--server` / `--also-publish`, then one more
/// embedded relay per output a scenario's `outputs N` asks for beyond those. Each further relay is a
/// server of its own on a free loopback port, so a server command naming it (`server-stall 30s 2`)
/// touches that destination only.
struct DemoDestinations {
    /// Output 1's relay (nil with `--server`) and URL.
    var relay: RelayServer?
    var url: StreamURL
    /// Outputs 2…N in order: the URL and, for an embedded one, its relay.
    var further: [(url: StreamURL, relay: RelayServer?)] = []

    /// Starts what `options` asks for; on a failure, stops what it had started.
    static func start(_ options: DemoOptions) async throws -> DemoDestinations {
        let (relay, url) = try await DemoFrontEnd.server(for: options)
        var destinations = DemoDestinations(relay: relay, url: url)
        do {
            for text in options.furtherServers {
                destinations.further.append((try FrontEndSetup.streamURL(text, command: "demo"), nil))
            }
            let embedded = max(0, options.outputs - 1 - options.furtherServers.count)
            for _ in 0..<embedded {
                let directory = URL(fileURLWithPath: options.recordDirectory).appendingPathComponent("output-\(destinations.further.count + 2)")
                let relay = try await DemoFrontEnd.startRelay(recordDirectory: directory.path, suspendTimeout: options.publisher.suspendTimeout)
                destinations.further.append((try FrontEndSetup.streamURL("rtmp://127.0.0.1:\(relay.port)/live/\(options.stream)", command: "demo"), relay))
            }
        } catch {
            await destinations.stop()
            throw error
        }
        return destinations
    }

    /// Stops every embedded relay.
    func stop() async {
        await relay?.stop()
        for output in further { await output.relay?.stop() }
    }

    /// The server commands of outputs 2…N that have an embedded relay, by output.
    func outputServers(post: @escaping @Sendable (FrontEndInput) -> Void) -> [Int: @Sendable (ServerCommand) -> Void] {
        var servers: [Int: @Sendable (ServerCommand) -> Void] = [:]
        for (offset, output) in further.enumerated() {
            guard let relay = output.relay else { continue }
            servers[offset + 2] = DemoFrontEnd.serverCommands(relay, output: offset + 2, post: post)
        }
        return servers
    }

    /// Outputs 2…N as the output group takes them: each with its own client configuration (`--ca-file`
    /// applies to every rtmps:// one); nil with one output.
    func outputGroup(_ options: DemoOptions, engine: MediaEngine, clock: SessionClock, events: @escaping @Sendable (OnAirEvent) -> Void,
                     notice: (String) -> Void) throws -> OutputGroup? {
        guard !further.isEmpty else { return nil }
        let configured = try further.map { output in
            (output.url, try FrontEndSetup.rtmpConfiguration(url: output.url, caFile: options.publisher.caFile, command: "demo", notice: notice))
        }
        return OutputGroup(
            first: url, further: configured, engine: engine, initialType: options.publisher.initialType ?? .live,
            sendTimeout: try FrontEndSetup.seconds(options.publisher.sendTimeout, option: "--send-timeout", command: "demo"),
            clock: clock, events: events)
    }
}
