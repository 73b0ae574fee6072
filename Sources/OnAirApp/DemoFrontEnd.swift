import Foundation
import OnAirControl
import OnAirCore
import OnAirMedia
import OnAirNet

/// `onair demo`: the two phones of Red5's testbed on one screen — a publisher and a subscriber of the
/// same stream — through the embedded relay (or `--server`), so every seed flow can be shown with no
/// server, camera or microphone.
public enum DemoFrontEnd {
    public static func run(_ options: DemoOptions) async throws {
        let (relay, url) = try await server(for: options)
        do {
            _ = try await runConsole(options, url: url, clock: SessionClock(), script: nil, notices: recordingNotice(options))
        } catch {
            await relay?.stop()
            throw error
        }
        await relay?.stop()
    }

    /// Both sides with JSON Lines on stdout and commands on stdin, until `--duration`, `quit` or a signal.
    public static func runHeadless(_ options: DemoOptions) async throws {
        let (relay, url) = try await server(for: options)
        do {
            let writer = try FrontEndSetup.headlessWriter(logFile: options.publisher.logFile, command: "demo")
            _ = try await runHeadless(options, url: url, writer: writer, clock: SessionClock(), script: nil)
        } catch {
            await relay?.stop()
            throw error
        }
        await relay?.stop()
    }

    /// The console on `url`; with `script`, the scenario plays itself on it and its first failure is returned.
    static func runConsole(
        _ options: DemoOptions, url: StreamURL, clock: SessionClock, script: ScenarioDriver?, notices extra: [String] = []
    ) async throws -> ScenarioDriver.Failure? {
        let (theme, warnings) = try FrontEndSetup.theme(options.publisher.theme, command: "demo")
        var notices = warnings + extra
        let engine = try FrontEndSetup.engine(options.publisher.engine, command: "demo") { notices.append($0) }
        let console = ConsoleFrontEnd(clock: clock, theme: theme, previewFramesPerSecond: options.publisher.engine.previewFramesPerSecond, color: options.publisher.color)
        let (publisher, subscriber) = try controllers(
            options, url: url, engine: engine, clock: clock,
            publisherPost: console.publisherPost, subscriberPost: console.subscriberPost, events: console.eventPost,
            notice: { notices.append($0) }
        )
        console.attach(publisher: publisher, subscriber: subscriber)
        if let log = try FrontEndSetup.eventLog(options.publisher.logFile, command: "demo") { console.writeEvents(to: log) }
        if options.server == nil { console.summary.recordDirectory = options.recordDirectory }
        notices.forEach(console.showNotice)
        console.duration = options.publisher.duration.map { .milliseconds(Int64($0 * 1000)) }
        var driving: Task<ScenarioDriver.Failure?, Never>?
        do {
            try publisher.start()
            console.publisherPost(.event(.control(.start(options.publisher.initialType))))
            console.subscriberPost(.event(.control(.play)))
            if let script {
                console.observeForScenario(script.observer.observe)
                let post = console.post
                driving = script.start(ScenarioDriver.Callbacks(
                    send: { post(.command($0)) },
                    quit: { _ in post(.quit) },
                    step: { post(.notice("scenario line \($0.line): \($0.text)")) }
                ))
            }
            try await console.run()
        } catch {
            driving?.cancel()
            throw error is FrontEndExit ? error : FrontEndExit(code: 1, message: "onair demo: \(error)")
        }
        driving?.cancel()
        return await driving?.value
    }

    /// The headless demo on `url`; with `script`, the scenario replaces stdin and its first failure is returned.
    static func runHeadless(
        _ options: DemoOptions, url: StreamURL, writer: JSONLinesWriter, clock: SessionClock, script: ScenarioDriver?
    ) async throws -> ScenarioDriver.Failure? {
        let inputs = HeadlessInputStream<HeadlessDemo.Input>(
            duration: options.publisher.duration.map { .milliseconds(Int64($0 * 1000)) },
            readsStandardInput: script == nil
        )
        let engine = try FrontEndSetup.engine(options.publisher.engine.withoutPreview, command: "demo") { notice in
            writer.write(HeadlessEvent(time: clock.now, side: .publisher, kind: "notice", details: ["text": .string(notice)]))
        }
        let (publisher, subscriber) = try controllers(
            options, url: url, engine: engine, clock: clock,
            publisherPost: { inputs.post(.publisher($0)) }, subscriberPost: { inputs.post(.subscriber($0)) },
            events: { writer.write($0) },
            notice: { writer.write(HeadlessEvent(time: clock.now, side: .app, kind: "notice", details: ["text": .string($0)])) }
        )
        writer.write(HeadlessEvent(time: clock.now, side: .app, kind: "started", details: [
            "command": "demo", "url": .string(url.redacted), "policy": .string(options.publisher.policy.rawValue),
            "relay": .bool(options.server == nil),
        ]))
        for text in recordingNotice(options) {
            writer.write(HeadlessEvent(time: clock.now, side: .app, kind: "notice", details: ["text": .string(text)]))
        }
        var driving: Task<ScenarioDriver.Failure?, Never>?
        do {
            try publisher.start()
            inputs.post(.publisher(.event(.control(.start(options.publisher.initialType)))))
            inputs.post(.subscriber(.event(.control(.play))))
            if let script {
                let continuation = inputs.continuation
                driving = script.start(ScenarioDriver.Callbacks(
                    send: { continuation.yield(.command($0)) },
                    quit: { continuation.yield(.quit(reason: $0)) },
                    checked: { expectation, verdict, elapsed in
                        writer.write(HeadlessEvent(time: clock.now, side: .app, kind: "expectation", details: expectation.headlessDetails(verdict, after: elapsed)))
                    }
                ))
            }
            try await HeadlessLoop.run(HeadlessDemo(publisher: publisher, subscriber: subscriber), inputs: inputs, writer: writer, clock: clock)
        } catch {
            driving?.cancel()
            throw error is FrontEndExit ? error : FrontEndExit(code: 1, message: "onair demo: \(error)")
        }
        driving?.cancel()
        return await driving?.value
    }

    /// Where the embedded relay records, said once at the start (nothing when `--server` records elsewhere).
    static func recordingNotice(_ options: DemoOptions) -> [String] {
        options.server == nil ? ["recordings (publish type record/append) go to \(options.recordDirectory)"] : []
    }

    /// The embedded relay and its URL, or the operator's `--server`.
    static func server(for options: DemoOptions) async throws -> (RelayServer?, StreamURL) {
        if let server = options.server {
            return (nil, try FrontEndSetup.streamURL(server, command: "demo"))
        }
        let relay = try await startRelay(recordDirectory: options.recordDirectory, suspendTimeout: options.publisher.suspendTimeout)
        do {
            return (relay, try FrontEndSetup.streamURL("rtmp://127.0.0.1:\(relay.port)/live/\(options.stream)", command: "demo"))
        } catch {
            await relay.stop()
            throw error
        }
    }

    /// The publisher and subscriber of one stream, posting their results where the front end says.
    /// The RTMP client configuration of both sides (and of a scenario's self-test): `--ca-file` for an
    /// `rtmps://` `--server`. The embedded relay is plain rtmp://, where a --ca-file is not needed: no notice then.
    static func rtmpConfiguration(_ options: DemoOptions, url: StreamURL, notice: (String) -> Void) throws -> RTMPClient.Configuration {
        let caFile = options.server == nil ? nil : options.publisher.caFile
        return try FrontEndSetup.rtmpConfiguration(url: url, caFile: caFile, command: "demo", notice: notice)
    }

    private static func controllers(
        _ options: DemoOptions,
        url: StreamURL,
        engine: MediaEngine,
        clock: SessionClock,
        publisherPost: @escaping @Sendable (PublisherInput) -> Void,
        subscriberPost: @escaping @Sendable (SubscriberInput) -> Void,
        events: @escaping @Sendable (HeadlessEvent) -> Void,
        notice: (String) -> Void
    ) throws -> (PublisherController, SubscriberController) {
        let reconnectDelay = try FrontEndSetup.seconds(options.reconnectDelay, option: "--reconnect-delay", command: "demo")
        let stallTimeout = try FrontEndSetup.seconds(options.stallTimeout, option: "--stall-timeout", command: "demo")
        let rtmp = try rtmpConfiguration(options, url: url, notice: notice)
        // The demo's publisher goes through the link stage in front of the relay (or --server); the
        // subscriber connects straight, so the link keys show what the publisher's network does to it.
        let (publishURL, network) = try PublishNetwork.start(
            options.publisher.network, url: url, engine: engine, clock: clock, command: "demo", events: events)
        let publisher = PublisherController(
            session: PublisherSession(configuration: try options.publisher.sessionConfiguration(url: url, command: "demo")),
            engine: engine, url: publishURL, clock: clock, rtmp: rtmp, post: publisherPost
        )
        publisher.network = network
        // The subscriber's own phone: a stage of its own when the server is plain rtmp://.
        let subscriberStage = try url.scheme == .rtmp ? linkStage(toward: url) : nil
        var playURL = url
        if let subscriberStage {
            playURL.host = "127.0.0.1"
            playURL.port = subscriberStage.port
        }
        let subscriber = SubscriberController(
            session: SubscriberSession(streamName: url.bareStreamName, redactedURL: url.redacted, reconnectDelay: reconnectDelay),
            url: playURL, clock: clock, stallTimeout: stallTimeout, rtmp: rtmp, post: subscriberPost
        )
        subscriber.link = subscriberStage
        return (publisher, subscriber)
    }

    private static func linkStage(toward url: StreamURL) throws -> LinkImpairment {
        do {
            return try LinkImpairment(targetHost: url.host, targetPort: url.port)
        } catch {
            throw FrontEndExit(code: 1, message: "onair demo: cannot start the subscriber's link stage: \(error)")
        }
    }

    /// The embedded relay on a free loopback port; recordings go to `recordDirectory`.
    ///
    /// Its idle timeout outlasts the publisher's suspend timeout: a background-audio publisher sends no
    /// video and only AAC silence (~2 kb/s) while a call suspends it, and the demo must show *its* timer
    /// ending the session (vonage-ios-background-state.txt), not the relay's.
    static func startRelay(recordDirectory: String, suspendTimeout: Double) async throws -> RelayServer {
        var configuration = RelayConfiguration()
        configuration.idleTimeout = .milliseconds(Int64((max(5, suspendTimeout) + 5) * 1000))
        configuration.host = "127.0.0.1"
        configuration.port = 0
        configuration.recordDirectory = URL(fileURLWithPath: recordDirectory)
        do {
            return try await RelayServer.start(configuration)
        } catch {
            throw FrontEndExit(code: 1, message: "onair demo: the embedded relay did not start: \(error)")
        }
    }
}
