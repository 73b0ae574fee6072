import OnAirControl
import OnAirCore
import OnAirMedia
import OnAirNet

/// `onair publish URL`: one publisher, driven by keys (console) or stdin commands (`--headless`).
public enum PublishFrontEnd {
    /// Runs the publisher console until the operator quits.
    public static func runConsole(_ options: PublishOptions) async throws {
        try await run(options, on: .console(
            theme: options.theme, color: options.color, previewFramesPerSecond: options.engine.previewFramesPerSecond,
            logFile: options.logFile, duration: options.duration, command: "publish"))
    }

    /// Runs the headless publisher until `--duration`, `quit`, SIGINT/SIGTERM or an unrecoverable error.
    public static func runHeadless(_ options: PublishOptions) async throws {
        let writer = try FrontEndSetup.headlessWriter(logFile: options.logFile, command: "publish")
        try await run(options, on: .headless(writer: writer, theme: options.theme, command: "publish", duration: options.duration))
    }

    /// The publisher and its network (the wire's measure, ABR, a stage only to impair), the same for both presentations, then the one loop.
    private static func run(_ options: PublishOptions, on presentation: FrontEndPresentation) async throws {
        let clock = presentation.clock
        let url = try FrontEndSetup.streamURL(options.url, command: "publish")
        let notice = { presentation.notice($0, side: .publisher) }
        let rtmp = try FrontEndSetup.rtmpConfiguration(url: url, caFile: options.caFile, command: "publish", notice: notice)
        let engine = try FrontEndSetup.engine(presentation.engineSettings(options.engine), command: "publish", notice: notice)
        let (publishURL, network) = try PublishNetwork.start(
            networkOptions(options), url: url, engine: engine, clock: clock, command: "publish", events: presentation.events)
        defer { network.stop() }
        let controller = PublisherController(
            session: PublisherSession(configuration: try options.sessionConfiguration(url: url, command: "publish")),
            engine: engine, url: publishURL, clock: clock, rtmp: PublishNetwork.clientConfiguration(rtmp, through: network),
            post: presentation.inputs.publisherPost
        )
        controller.network = network
        controller.outputs = try furtherOutputs(options, first: url, engine: engine, presentation: presentation, notice: notice)
        controller.outputs?.startAdaptiveBitrate(options, probe: network.probe, engine: engine)
        do {
            try controller.start()
        } catch {
            throw FrontEndExit(code: 1, message: "onair publish: \(error)")
        }
        var started: [String: JSONValue] = [
            "command": "publish", "url": .string(url.redacted), "policy": .string(options.policy.rawValue),
            "video": .string(engine.configuration.video?.description ?? "none"),
            "audio": .string(engine.configuration.audio?.description ?? "none"),
        ]
        if !options.furtherURLs.isEmpty { started["outputs"] = .integer(Int64(1 + options.furtherURLs.count)) }
        presentation.started(started)
        presentation.inputs.post(.publisher(.event(.control(.start(options.initialType)))))
        try await presentation.run(FrontEndSides(publisher: controller, subscriber: nil))
    }
}
