import Foundation
import OnAirCore
import OnAirNet

/// `onair demo`: the two phones of Red5's testbed on one screen — a publisher and a subscriber of the
/// same stream — through the embedded relay (or `--server`), so every seed flow can be shown with no
/// server, camera or microphone.
public enum DemoFrontEnd {
    public static func run(_ options: DemoOptions) async throws {
        let (theme, warnings) = try FrontEndSetup.theme(options.publisher.theme, command: "demo")
        let relay: RelayServer?
        let url: StreamURL
        if let server = options.server {
            relay = nil
            url = try FrontEndSetup.streamURL(server, command: "demo")
        } else {
            relay = try await startRelay(recordDirectory: options.recordDirectory, suspendTimeout: options.publisher.suspendTimeout)
            url = try FrontEndSetup.streamURL("rtmp://127.0.0.1:\(relay!.port)/live/\(options.stream)", command: "demo")
        }
        let clock = SessionClock()
        var notices = warnings
        let engine = try FrontEndSetup.engine(options.publisher.engine, command: "demo") { notices.append($0) }
        let reconnectDelay = try FrontEndSetup.seconds(options.reconnectDelay, option: "--reconnect-delay", command: "demo")
        let stallTimeout = try FrontEndSetup.seconds(options.stallTimeout, option: "--stall-timeout", command: "demo")
        let console = ConsoleFrontEnd(clock: clock, theme: theme, previewFramesPerSecond: options.publisher.engine.previewFramesPerSecond)
        let publisher = PublisherController(
            session: PublisherSession(configuration: options.publisher.sessionConfiguration(url: url)),
            engine: engine, url: url, clock: clock, post: console.publisherPost
        )
        let subscriber = SubscriberController(
            session: SubscriberSession(streamName: url.bareStreamName, redactedURL: url.redacted, reconnectDelay: reconnectDelay),
            url: url, clock: clock, stallTimeout: stallTimeout, post: console.subscriberPost
        )
        console.attach(publisher: publisher, subscriber: subscriber)
        notices.forEach(console.showNotice)
        do {
            try publisher.start()
        } catch {
            await relay?.stop()
            throw FrontEndExit(code: 1, message: "onair demo: \(error)")
        }
        console.publisherPost(.event(.control(.start(options.publisher.initialType))))
        console.subscriberPost(.event(.control(.play)))
        do {
            try await console.run()
        } catch {
            await relay?.stop()
            throw error
        }
        await relay?.stop()
    }

    /// The embedded relay on a free loopback port; recordings go to `recordDirectory`.
    ///
    /// Its idle timeout outlasts the publisher's suspend timeout: a background-audio publisher sends
    /// nothing while a call suspends it, and the demo must show *its* timer ending the session
    /// (vonage-ios-background-state.txt), not the relay's.
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
