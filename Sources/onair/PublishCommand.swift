import ArgumentParser
import OnAirApp
import OnAirCore

struct PublishCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "publish",
        abstract: "Publish camera and microphone (or synthetic sources) to an RTMP server, with interrupt keys.",
        discussion: """
        With --check, no broadcast: a relay self-test. A player plays the URL's stream, a publisher sends the \
        test pattern and tone (320x240) to it, then a nonce with send(); one line says whether the player \
        received it (--headless: one JSON Lines `check` event). Uses the URL's stream name; a stream that is \
        already live is refused by the server and not disturbed. Gives up after 10 s.
        Exit status with --check: 0 the server relays send() notices; 3 it DROPS them (stock nginx-rtmp); \
        1 the check could not run (connection refused, publish refused, no verdict in 10 s); 2 usage error.
        """
    )

    @Argument(help: "Where to publish: rtmp[s]://host[:port]/app/stream (rtmps: TLS, port 443 by default, certificate verified)")
    var url: String

    @Argument(help: ArgumentHelp(
        "Further destinations of the same broadcast: one encode, one connection per URL, each failing and recovering on its own.",
        valueName: "more-urls"))
    var moreURLs: [String] = []

    @Option(help: "Publish type of the first broadcast: live, record or append.")
    var type: PublishType?

    @Flag(help: "Self-test: send a nonce with send() and report whether a subscriber receives it (exit 0 relayed, 3 dropped, 1 could not run).")
    var check = false

    @OptionGroup var policy: PolicyOptions
    @OptionGroup var engine: EngineOptions
    @OptionGroup var tls: TLSOptions
    @OptionGroup var streamKey: StreamKeyOptions
    @OptionGroup var presentation: PresentationOptions
    @OptionGroup var network: NetworkOptionGroup

    func run() async throws {
        let url = try streamKey.url(self.url)
        var options = PublishOptions(url: url, type: type, policy: policy, engine: engine, tls: tls, presentation: presentation)
        options.furtherURLs = moreURLs
        try await runFrontEnd {
            options.network = try network.options(command: "publish")
            if check {
                let status = try await RelayCheck.run(url: url, headless: presentation.headless, caFile: tls.caFile)
                if status != 0 { throw ExitCode(status) }
                return
            }
            if presentation.headless {
                try await PublishFrontEnd.runHeadless(options)
            } else {
                try await PublishFrontEnd.runConsole(options)
            }
        }
    }
}
