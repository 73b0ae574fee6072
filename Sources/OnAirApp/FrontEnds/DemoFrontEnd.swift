import Foundation
import OnAirControl
import OnAirCore
import OnAirMedia
import OnAirNet
import OnAirRelay
import OnAirLink

/// `onair demo`: the two phones of Red5's testbed on one screen — a publisher and a subscriber of the
/// same stream — through the embedded relay (or `--server`), so every seed flow can be shown with no
/// server, camera or microphone.
public enum DemoFrontEnd {
    public static func run(_ options: DemoOptions) async throws {
        let destinations = try await DemoDestinations.start(options)
        do {
            _ = try await runConsole(options, destinations, clock: SessionClock(), script: nil, notices: recordingNotice(options))
        } catch {
            await destinations.stop()
            throw error
        }
        await destinations.stop()
    }

    /// Both sides with JSON Lines on stdout and commands on stdin, until `--duration`, `quit` or a signal.
    public static func runHeadless(_ options: DemoOptions) async throws {
        let destinations = try await DemoDestinations.start(options)
        do {
            let writer = try FrontEndSetup.headlessWriter(logFile: options.publisher.logFile, command: "demo")
            _ = try await runHeadless(options, destinations, writer: writer, clock: SessionClock(), script: nil)
        } catch {
            await destinations.stop()
            throw error
        }
        await destinations.stop()
    }

    /// The console on `url`; with `script`, the scenario plays itself on it and its first failure is returned.
    static func runConsole(
        _ options: DemoOptions, _ destinations: DemoDestinations, clock: SessionClock, script: ScenarioDriver?, notices extra: [String] = []
    ) async throws -> ScenarioDriver.Failure? {
        let presentation = try FrontEndPresentation.console(
            theme: options.publisher.theme, color: options.publisher.color, previewFramesPerSecond: options.publisher.engine.previewFramesPerSecond,
            logFile: options.publisher.logFile, duration: options.publisher.duration, command: "demo", clock: clock)
        for text in extra { presentation.notice(text, side: .app) }
        if options.server == nil { presentation.consolePresenter?.summary.recordDirectory = options.recordDirectory }
        let post = presentation.inputs.poster
        return try await run(options, destinations, on: presentation, notices: [], script: script.map { script in
            presentation.consolePresenter?.observeForScenario(script.observer.observe)
            return (script, ScenarioDriver.Callbacks(
                send: { post(.command($0)) },
                quit: { post(.quit(reason: $0)) },
                step: { post(.notice("scenario line \($0.line): \($0.text)")) }
            ))
        })
    }

    /// The headless demo on `url`; with `script`, the scenario replaces stdin and its first failure is returned.
    static func runHeadless(
        _ options: DemoOptions, _ destinations: DemoDestinations, writer: JSONLinesWriter, clock: SessionClock, script: ScenarioDriver?
    ) async throws -> ScenarioDriver.Failure? {
        let presentation = try FrontEndPresentation.headless(
            writer: writer, theme: options.publisher.theme, command: "demo", duration: options.publisher.duration, readsStandardInput: script == nil, clock: clock)
        let post = presentation.inputs.poster
        return try await run(options, destinations, on: presentation, notices: recordingNotice(options), script: script.map { script in
            (script, ScenarioDriver.Callbacks(
                send: { post(.command($0)) },
                quit: { post(.quit(reason: $0)) },
                checked: { expectation, verdict, elapsed in
                    writer.write(OnAirEvent(time: clock.now, side: .app, .reported(kind: "expectation", details: expectation.headlessDetails(verdict, after: elapsed))))
                }
            ))
        })
    }

    /// Both sides, the same for both presentations, then the one loop; a scenario runs beside it, talking
    /// to it only through the loop's inputs. `notices` follow the `started` event.
    private static func run(
        _ options: DemoOptions, _ destinations: DemoDestinations, on presentation: FrontEndPresentation, notices: [String],
        script: (driver: ScenarioDriver, callbacks: ScenarioDriver.Callbacks)?
    ) async throws -> ScenarioDriver.Failure? {
        let clock = presentation.clock
        let url = destinations.url
        let engine = try FrontEndSetup.engine(presentation.engineSettings(options.publisher.engine), command: "demo") {
            presentation.notice($0, side: .publisher)
        }
        // With several destinations ABR runs across them (as `onair publish URL URL …`): output 1's own is off.
        var single = options
        if !destinations.further.isEmpty { single.publisher.network.abr = .off }
        let (publisher, subscriber) = try controllers(
            single, url: url, engine: engine, clock: clock,
            publisherPost: presentation.inputs.publisherPost, subscriberPost: presentation.inputs.subscriberPost,
            events: presentation.events, notice: { presentation.notice($0, side: .app) }
        )
        // Outputs 2…N: the link stage stays in front of output 1 only (the link keys act on it).
        publisher.outputs = try destinations.outputGroup(
            options, engine: engine, clock: clock, events: presentation.events, notice: { presentation.notice($0, side: .app) })
        if let probe = publisher.network?.probe {
            publisher.outputs?.startAdaptiveBitrate(options.publisher, probe: probe, engine: engine)
        }
        var started: [String: JSONValue] = [
            "command": "demo", "url": .string(url.redacted), "policy": .string(options.publisher.policy.rawValue),
            "relay": .bool(options.server == nil),
        ]
        if !destinations.further.isEmpty { started["outputs"] = .integer(Int64(1 + destinations.further.count)) }
        presentation.started(started)
        for text in notices { presentation.notice(text, side: .app) }
        var driving: Task<ScenarioDriver.Failure?, Never>?
        do {
            try publisher.start()
            presentation.inputs.post(.publisher(.event(.control(.start(options.publisher.initialType)))))
            presentation.inputs.post(.subscriber(.event(.control(.play))))
            driving = script.map { $0.driver.start($0.callbacks) }
            let sides = FrontEndSides(publisher: publisher, subscriber: subscriber)
            if let relay = destinations.relay { sides.commands.server = serverCommands(relay, post: presentation.inputs.poster) }
            sides.commands.outputServers = destinations.outputServers(post: presentation.inputs.poster)
            try await presentation.run(sides)
        } catch {
            driving?.cancel()
            throw error is FrontEndExit ? error : FrontEndExit(code: 1, message: "onair demo: \(error)")
        }
        driving?.cancel()
        return await driving?.value
    }

    /// The server keys on the embedded relay (issue 27): each acts on it and says what it did, once, in
    /// the operator's words.
    /// `output` names a further destination's relay (issue 30), which its notices then name too.
    static func serverCommands(
        _ relay: RelayServer, output: Int? = nil, post: @escaping @Sendable (FrontEndInput) -> Void
    ) -> @Sendable (ServerCommand) -> Void {
        { command in
            relay.interrupt(command)
            let seconds = command.duration.map(NumberText.describe) ?? ""
            let word = output.map { "\(command.word) \($0)" } ?? command.word
            let which = output.map { "output \($0)'s relay" } ?? "the relay"
            switch command {
            case .restart: post(.notice("\(word): \(which) drops every connection and refuses new ones for \(seconds)"))
            case .busy: post(.notice("\(word): \(which) refuses publishing as \"already publishing\" for \(seconds)"))
            case .stall: post(.notice("\(word): \(which) reads nothing from its publishers for \(seconds)"))
            case .move: post(.notice("\(word): \(which) asks its clients to reconnect to its second listener (ReconnectRequest)"))
            }
        }
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
        do {
            try RelayRecordDirectory.prepare(options.recordDirectory)
        } catch {
            throw FrontEndExit(code: 1, message: "onair demo: \(error); give --record-dir a directory you can write")
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
        events: @escaping @Sendable (OnAirEvent) -> Void,
        notice: (String) -> Void
    ) throws -> (PublisherController, SubscriberController) {
        let reconnectDelay = try FrontEndSetup.seconds(options.reconnectDelay, option: "--reconnect-delay", command: "demo")
        let stallTimeout = try FrontEndSetup.seconds(options.stallTimeout, option: "--stall-timeout", command: "demo")
        let rtmp = try rtmpConfiguration(options, url: url, notice: notice)
        // The demo's publisher goes through the link stage in front of the relay (or --server); the
        // subscriber connects straight, so the link keys show what the publisher's network does to it.
        let (publishURL, network) = try PublishNetwork.start(
            options.publisher.network, url: url, engine: engine, clock: clock, command: "demo", withStage: true, events: events)
        let publisher = PublisherController(
            session: PublisherSession(configuration: try options.publisher.sessionConfiguration(url: url, command: "demo")),
            engine: engine, url: publishURL, clock: clock, rtmp: PublishNetwork.clientConfiguration(rtmp, through: network),
            post: publisherPost
        )
        publisher.network = network
        // The subscriber's own phone: a stage of its own when the server is plain rtmp://.
        let subscriberStage = try url.scheme == .rtmp ? linkStage(toward: url) : nil
        // The socket dials the stage; `connect` still names the server (issue 32).
        var playRTMP = rtmp
        playRTMP.route = subscriberStage.map { RTMPClient.Route(host: "127.0.0.1", port: $0.port) }
        let subscriber = SubscriberController(
            session: SubscriberSession(streamName: url.bareStreamName, redactedURL: url.redacted, reconnectDelay: reconnectDelay),
            url: url, clock: clock, stallTimeout: stallTimeout, rtmp: playRTMP, post: subscriberPost
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
            let relay = try await RelayServer.start(configuration)
            // server-move's destination: a second listener of the same relay, standing in for a second server.
            _ = try await relay.addMoveListener()
            return relay
        } catch {
            throw FrontEndExit(code: 1, message: "onair demo: the embedded relay did not start: \(error)")
        }
    }
}
