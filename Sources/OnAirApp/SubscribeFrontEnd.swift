import OnAirCore
import OnAirMedia
import OnAirNet

/// `onair subscribe URL`: one player that follows the publisher's interrupt notices.
public enum SubscribeFrontEnd {
    /// Runs the subscriber console until the operator quits.
    public static func runConsole(_ options: SubscribeOptions) async throws {
        let (theme, warnings) = try FrontEndSetup.theme(options.theme, command: "subscribe")
        let clock = SessionClock()
        let url = try FrontEndSetup.streamURL(options.url, command: "subscribe")
        let reconnectDelay = try FrontEndSetup.seconds(options.reconnectDelay, option: "--reconnect-delay", command: "subscribe")
        let stallTimeout = try FrontEndSetup.seconds(options.stallTimeout, option: "--stall-timeout", command: "subscribe")
        let console = ConsoleFrontEnd(clock: clock, theme: theme, previewFramesPerSecond: options.previewFramesPerSecond)
        let controller = SubscriberController(
            session: SubscriberSession(streamName: url.bareStreamName, redactedURL: url.redacted, reconnectDelay: reconnectDelay),
            url: url, clock: clock, stallTimeout: stallTimeout, post: console.subscriberPost
        )
        console.attach(publisher: nil, subscriber: controller)
        warnings.forEach(console.showNotice)
        console.subscriberPost(.event(.control(.play)))
        try await console.run()
    }

    /// Runs the headless subscriber until `--duration`, `quit`, SIGINT/SIGTERM or a failed first play.
    public static func runHeadless(_ options: SubscribeOptions) async throws {
        let writer = JSONLinesWriter()
        let clock = SessionClock()
        let url = try FrontEndSetup.streamURL(options.url, command: "subscribe")
        let reconnectDelay = try FrontEndSetup.seconds(options.reconnectDelay, option: "--reconnect-delay", command: "subscribe")
        let stallTimeout = try FrontEndSetup.seconds(options.stallTimeout, option: "--stall-timeout", command: "subscribe")
        let inputs = HeadlessInputStream<SubscriberInput>(duration: options.duration.map { .milliseconds(Int64($0 * 1000)) })
        let session = SubscriberSession(streamName: url.bareStreamName, redactedURL: url.redacted, reconnectDelay: reconnectDelay)
        let controller = SubscriberController(session: session, url: url, clock: clock, stallTimeout: stallTimeout) { inputs.post($0) }
        writer.write(HeadlessEvent(time: clock.now, side: .app, kind: "started", details: [
            "command": "subscribe", "url": .string(url.redacted),
        ]))
        inputs.post(.event(.control(.play)))

        var reporter = HeadlessReporter(side: .subscriber)
        var failure: FrontEndExit?
        loop: for await input in inputs.stream {
            switch input {
            case .side(let event):
                await controller.handle(event)
            case .command(.phone(let action)):
                await controller.handle(.event(.operator(action)))
            case .command(.subscriber(let control)):
                await controller.handle(.event(.control(control)))
            case .command(.publisher):
                writer.write(HeadlessEvent(time: clock.now, side: .app, kind: "error", details: ["text": "that is a publisher command"]))
            case .unknownCommand(let line):
                writer.write(HeadlessEvent(time: clock.now, side: .app, kind: "error", details: [
                    "text": .string("unknown command '\(line)'; commands: \(OperatorCommand.names.joined(separator: ", "))"),
                ]))
            case .tick:
                await controller.handle(.tick)
                writer.write(HeadlessEvent(time: clock.now, side: .subscriber, kind: "stats", details: controller.headlessStats))
            case .command(.quit):
                break loop
            case .quit(let reason):
                writer.write(HeadlessEvent(time: clock.now, side: .app, kind: "quit", details: ["reason": .string(reason)]))
                break loop
            }
            for notice in controller.takeNotices() {
                writer.write(HeadlessEvent(time: clock.now, side: .subscriber, kind: notice.kind, details: notice.details))
            }
            let state = controller.state
            for event in reporter.report(log: state.log, toasts: state.toasts, summary: state.headlessSummary, at: clock.now) {
                writer.write(event)
            }
            if case .error(let message) = state.connection {
                failure = FrontEndExit(code: 1, message: "onair subscribe: \(message)")
                break loop
            }
        }
        inputs.finish()
        await controller.shutdown()
        writer.write(HeadlessEvent(time: clock.now, side: .app, kind: "stopped", details: controller.headlessStats))
        if let failure { throw failure }
    }
}

extension SubscriberController {
    /// The `stats` event details of a subscriber (README, "Headless output").
    var headlessStats: [String: JSONValue] {
        let decoded = decoder?.snapshot
        let counters = decoderCounters
        var details: [String: JSONValue] = [
            "bitrate": .integer(Int64(meter.bitrate)),
            "fps": .number((meter.framesPerSecond * 10).rounded() / 10),
            "videoPackets": .integer(Int64(counters.videoPacketsReceived)),
            "framesDecoded": .integer(Int64(counters.videoFramesDecoded)),
            "skippedWhilePaused": .integer(Int64(counters.videoSkippedWhilePaused)),
            "audioFramesDecoded": .integer(Int64(counters.audioFramesDecoded)),
            "renderPaused": .bool(decoded?.renderPaused ?? false),
        ]
        if let level = decoded?.audioLevel { details["audioLevelDb"] = .number((level.rmsDBFS * 10).rounded() / 10) }
        if let error = decoded?.lastError { details["decodeError"] = .string(error) }
        return details
    }
}
