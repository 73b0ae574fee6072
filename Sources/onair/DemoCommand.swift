import ArgumentParser
import OnAirApp

struct DemoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Run a publisher and a subscriber on one screen, through an embedded loopback relay."
    )

    @Option(help: ArgumentHelp(
        "Publish to and play from this rtmp[s]://host[:port]/app/stream instead of the embedded relay; repeat to publish the one broadcast to several servers (the first is played).",
        valueName: "url"))
    var server: [String] = []

    @Option(help: ArgumentHelp(
        "One more destination of the demo's broadcast beside the embedded relay (or the first --server); repeat for several.",
        valueName: "url"))
    var alsoPublish: [String] = []

    @Option(help: "Stream name to publish and play.")
    var stream = "stream1"

    @Option(help: "Where the embedded relay writes record/append recordings (default: $XDG_STATE_HOME/onair/recordings, else ~/.local/state/onair/recordings).")
    var recordDir: String?

    @Option(help: ArgumentHelp(
        "Play a scenario file (timed keys and expectations, see Scenarios/README.md); repeat to play several in turn.",
        valueName: "file"
    ))
    var script: [String] = []

    @Flag(help: "With --script: print a table of each scenario's video gap, key-to-publishing time, reconnects and recordings, to compare the policies.")
    var report = false

    @Option(help: ArgumentHelp(
        "With --script: play each scenario once per ABR mode (e.g. off,ladder,throughput), in place of its own and --abr, so --report shows them side by side.",
        valueName: "modes"
    ))
    var compareAbr: String?

    @OptionGroup var policy: PolicyOptions
    @OptionGroup var engine: EngineOptions
    @OptionGroup var subscriber: SubscriberOptions
    @OptionGroup var tls: TLSOptions
    @OptionGroup var streamKey: StreamKeyOptions
    @OptionGroup var presentation: PresentationOptions
    @OptionGroup var network: NetworkOptionGroup

    func validate() throws {
        if script.isEmpty && report {
            throw ValidationError("--report compares scenario runs; give it with --script FILE")
        }
        if script.isEmpty && compareAbr != nil {
            throw ValidationError("--compare-abr plays scenarios once per ABR mode; give it with --script FILE")
        }
    }

    func run() async throws {
        // The key goes only to a server the operator names; the embedded relay asks for none.
        let server = try self.server.first.map { try streamKey.url($0) }
        var options = DemoOptions(
            server: server,
            stream: stream,
            recordDirectory: recordDir ?? RecordingDirectory.standard(),
            publisher: PublishOptions(
                url: server ?? "rtmp://127.0.0.1/live/\(stream)", policy: policy, engine: engine, tls: tls, presentation: presentation),
            reconnectDelay: subscriber.reconnectDelay,
            stallTimeout: subscriber.stallTimeout
        )
        options.furtherServers = Array(self.server.dropFirst()) + alsoPublish
        options.outputs = 1 + options.furtherServers.count
        try await runFrontEnd {
            options.publisher.network = try network.options(command: "demo")
            options.compareABR = try compareAbr.map(DemoOptions.abrModes) ?? []
            if !script.isEmpty {
                try await ScenarioFrontEnd.run(files: script, demo: options, headless: presentation.headless, report: report)
            } else if presentation.headless {
                try await DemoFrontEnd.runHeadless(options)
            } else {
                try await DemoFrontEnd.run(options)
            }
        }
    }
}
