import OnAirControl
import OnAirCore
import OnAirMedia
import OnAirNet

/// `onair publish URL`: one publisher, driven by keys (console) or stdin commands (`--headless`).
public enum PublishFrontEnd {
    /// Runs the publisher console until the operator quits.
    public static func runConsole(_ options: PublishOptions) async throws {
        let (theme, warnings) = try FrontEndSetup.theme(options.theme, command: "publish")
        let clock = SessionClock()
        let url = try FrontEndSetup.streamURL(options.url, command: "publish")
        var notices = warnings
        let rtmp = try FrontEndSetup.rtmpConfiguration(url: url, caFile: options.caFile, command: "publish") { notices.append($0) }
        let engine = try FrontEndSetup.engine(options.engine, command: "publish") { notices.append($0) }
        let console = ConsoleFrontEnd(clock: clock, theme: theme, previewFramesPerSecond: options.engine.previewFramesPerSecond, color: options.color)
        let (publishURL, network) = try PublishNetwork.start(
            options.network, url: url, engine: engine, clock: clock, command: "publish", events: console.eventPost)
        let controller = PublisherController(
            session: PublisherSession(configuration: try options.sessionConfiguration(url: url, command: "publish")),
            engine: engine, url: publishURL, clock: clock, rtmp: rtmp, post: console.publisherPost
        )
        controller.network = network
        console.attach(publisher: controller, subscriber: nil)
        if let log = try FrontEndSetup.eventLog(options.logFile, command: "publish") { console.writeEvents(to: log) }
        notices.forEach(console.showNotice)
        console.duration = options.duration.map { .milliseconds(Int64($0 * 1000)) }
        do {
            try controller.start()
        } catch {
            throw FrontEndExit(code: 1, message: "onair publish: \(error)")
        }
        console.publisherPost(.event(.control(.start(options.initialType))))
        try await console.run()
    }

    /// Runs the headless publisher until `--duration`, `quit`, SIGINT/SIGTERM or an unrecoverable error.
    public static func runHeadless(_ options: PublishOptions) async throws {
        let writer = try FrontEndSetup.headlessWriter(logFile: options.logFile, command: "publish")
        let clock = SessionClock()
        let url = try FrontEndSetup.streamURL(options.url, command: "publish")
        let notice = { (text: String) in
            writer.write(HeadlessEvent(time: clock.now, side: .publisher, kind: "notice", details: ["text": .string(text)]))
        }
        let rtmp = try FrontEndSetup.rtmpConfiguration(url: url, caFile: options.caFile, command: "publish", notice: notice)
        let engine = try FrontEndSetup.engine(options.engine.withoutPreview, command: "publish", notice: notice)
        let (publishURL, network) = try PublishNetwork.start(
            options.network, url: url, engine: engine, clock: clock, command: "publish", events: { writer.write($0) })
        defer { network?.stop() }
        let inputs = HeadlessInputStream<PublisherInput>(duration: options.duration.map { .milliseconds(Int64($0 * 1000)) })
        let session = PublisherSession(configuration: try options.sessionConfiguration(url: url, command: "publish"))
        let controller = PublisherController(session: session, engine: engine, url: publishURL, clock: clock, rtmp: rtmp) { inputs.post($0) }
        controller.network = network
        do {
            try controller.start()
        } catch {
            throw FrontEndExit(code: 1, message: "onair publish: \(error)")
        }
        writer.write(HeadlessEvent(time: clock.now, side: .app, kind: "started", details: [
            "command": "publish", "url": .string(url.redacted), "policy": .string(options.policy.rawValue),
            "video": .string(engine.configuration.video?.description ?? "none"),
            "audio": .string(engine.configuration.audio?.description ?? "none"),
        ]))
        inputs.post(.event(.control(.start(options.initialType))))
        try await HeadlessLoop.run(HeadlessPublisher(controller), inputs: inputs, writer: writer, clock: clock)
    }
}
