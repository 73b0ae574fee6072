import ArgumentParser
import OnAirApp

struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Run the embedded RTMP relay: relays data messages and records by publish type (for demos and development)."
    )

    @Option(help: "Address to listen on as HOST:PORT; non-loopback addresses need --publish-key.")
    var listen = "127.0.0.1:1935"

    @Option(help: "Key publishers must present as ?key=KEY after the stream name (required beyond loopback).")
    var publishKey: String?

    @Option(help: "Directory for record/append recordings.")
    var recordDir = "recordings"

    @Option(help: "Seconds without data from a publisher, socket open, before it is treated as gone (0: never).")
    var idleTimeout: Double = 5

    @Flag(help: "Log as JSON Lines on stdout.")
    var headless = false

    func run() async throws {
        let options = ServeFrontEnd.Options(
            listen: listen, publishKey: publishKey, recordDirectory: recordDir, idleTimeout: idleTimeout, headless: headless)
        try await runFrontEnd { try await ServeFrontEnd(options: options).run() }
    }
}
