import ArgumentParser
import OnAirApp

struct DemoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Run a publisher and a subscriber on one screen, through an embedded loopback relay."
    )

    @Option(help: "Publish to this rtmp:// server instead of the embedded relay.")
    var server: String?

    @Option(help: "Stream name to publish and play.")
    var stream = "stream1"

    @Option(help: "Where the embedded relay writes record/append recordings.")
    var recordDir = "recordings"

    @Flag(help: "Print a side-by-side table of each policy's gaps and timings at the end (with --script).")
    var report = false

    @OptionGroup var policy: PolicyOptions
    @OptionGroup var engine: EngineOptions
    @OptionGroup var subscriber: SubscriberOptions
    @OptionGroup var presentation: PresentationOptions

    func run() async throws {
        try await runFrontEnd { throw FrontEndExit.notBuiltYet("demo", issue: 6) }
    }
}
