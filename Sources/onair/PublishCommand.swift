import ArgumentParser
import OnAirApp
import OnAirCore

struct PublishCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "publish",
        abstract: "Publish camera and microphone (or synthetic sources) to an RTMP server, with interrupt keys."
    )

    @Argument(help: "Where to publish: rtmp[s]://host[:port]/app/stream")
    var url: String

    @Option(help: "Publish type of the first broadcast: live, record or append.")
    var type: PublishType?

    @Flag(help: "Self-test: send a nonce with send() and report whether a subscriber receives it.")
    var check = false

    @OptionGroup var policy: PolicyOptions
    @OptionGroup var engine: EngineOptions
    @OptionGroup var tls: TLSOptions
    @OptionGroup var presentation: PresentationOptions

    func run() async throws {
        let options = PublishOptions(
            url: url,
            initialType: type,
            policy: policy.kind,
            suspendTimeout: policy.suspendTimeout,
            engine: engine.settings(previewFramesPerSecond: presentation.previewFps),
            duration: presentation.duration,
            theme: presentation.theme
        )
        try await runFrontEnd {
            try refuseUnbuilt(command: "publish", script: presentation.script, check: check, caFile: tls.caFile)
            if presentation.headless {
                try await PublishFrontEnd.runHeadless(options)
            } else {
                try await PublishFrontEnd.runConsole(options)
            }
        }
    }
}
