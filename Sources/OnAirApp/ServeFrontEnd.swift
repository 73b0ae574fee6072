import Dispatch
import Foundation
import NIOCore
import OnAirCore
import OnAirNet

/// `onair serve`: runs the embedded relay until SIGINT or SIGTERM, printing what it does — JSON Lines on
/// stdout with `--headless` (``HeadlessEvent``, side `relay`), readable lines on stderr otherwise.
///
/// On a signal it stops the relay, which closes every recording after writing its buffered whole tags,
/// then returns normally (exit 0). Problems that prevent serving — a bad address, a port in use, a
/// non-loopback address without a key — become a one-line ``FrontEndExit`` with a non-zero code.
public struct ServeFrontEnd: Sendable {
    /// The command line's choices.
    public struct Options: Sendable {
        public var listen: String
        public var publishKey: String?
        public var recordDirectory: String
        public var idleTimeout: Double
        public var headless: Bool
        /// 0: no limit.
        public var maxConnectionsPerAddress: Int
        public var limitLoopback: Bool
        public var handshakeTimeout: Double
        /// 0: audio is never held back.
        public var audioMergeMilliseconds: Int

        public init(listen: String, publishKey: String?, recordDirectory: String, idleTimeout: Double, headless: Bool,
                    maxConnectionsPerAddress: Int = 32, limitLoopback: Bool = false, handshakeTimeout: Double = 5,
                    audioMergeMilliseconds: Int = 40) {
            self.listen = listen
            self.publishKey = publishKey
            self.recordDirectory = recordDirectory
            self.idleTimeout = idleTimeout
            self.headless = headless
            self.maxConnectionsPerAddress = maxConnectionsPerAddress
            self.limitLoopback = limitLoopback
            self.handshakeTimeout = handshakeTimeout
            self.audioMergeMilliseconds = audioMergeMilliseconds
        }
    }

    public let options: Options

    public init(options: Options) {
        self.options = options
    }

    /// The relay configuration for these options, or a one-line exit.
    public func configuration() throws(FrontEndExit) -> RelayConfiguration {
        var configuration: RelayConfiguration
        do {
            configuration = try RelayConfiguration(listen: options.listen, publishKey: options.publishKey)
        } catch {
            throw FrontEndExit(code: 2, message: "onair serve: \(error)")
        }
        guard options.idleTimeout >= 0, options.idleTimeout.isFinite else {
            throw FrontEndExit(code: 2, message: "onair serve: --idle-timeout must be 0 (off) or a number of seconds, got \(options.idleTimeout)")
        }
        configuration.idleTimeout = options.idleTimeout == 0 ? nil : .milliseconds(Int64(options.idleTimeout * 1000))
        guard options.maxConnectionsPerAddress >= 0 else {
            throw FrontEndExit(code: 2, message: "onair serve: --max-connections-per-address must be 0 (no limit) or more, got \(options.maxConnectionsPerAddress)")
        }
        configuration.maxConnectionsPerAddress = options.maxConnectionsPerAddress == 0 ? nil : options.maxConnectionsPerAddress
        configuration.limitsLoopback = options.limitLoopback
        guard options.handshakeTimeout > 0, options.handshakeTimeout.isFinite else {
            throw FrontEndExit(code: 2, message: "onair serve: --handshake-timeout must be a positive number of seconds, got \(options.handshakeTimeout)")
        }
        configuration.handshakeTimeout = .milliseconds(Int64(options.handshakeTimeout * 1000))
        guard (0...1000).contains(options.audioMergeMilliseconds) else {
            throw FrontEndExit(code: 2, message: "onair serve: --audio-merge-ms must be from 0 (off) to 1000, got \(options.audioMergeMilliseconds)")
        }
        configuration.audioMergeWindow = options.audioMergeMilliseconds == 0 ? nil : .milliseconds(Int64(options.audioMergeMilliseconds))
        configuration.recordDirectory = URL(fileURLWithPath: options.recordDirectory)
        return configuration
    }

    /// Serves until SIGINT/SIGTERM.
    public func run() async throws {
        let configuration = try configuration()
        // Watching from before the relay starts, so a signal during start-up still stops it cleanly.
        let (signalled, signal) = AsyncStream.makeStream(of: Int32.self)
        let signals = SignalWatcher { signal.yield($0) }
        let relay: RelayServer
        do {
            relay = try await RelayServer.start(configuration)
        } catch {
            throw FrontEndExit(code: 1, message: "onair serve: \(error)")
        }
        let headless = options.headless
        let clock = SessionClock()
        let printer = Task {
            let writer = JSONLinesWriter(handle: .standardOutput)
            for await event in relay.events {
                if headless {
                    writer.write(ServeEventFormatter.headless(event, time: clock.now))
                } else {
                    FileHandle.standardError.write(Data((ServeEventFormatter.line(event) + "\n").utf8))
                }
            }
        }
        for await _ in signalled { break }
        withExtendedLifetime(signals) {}
        await relay.stop()
        await printer.value
    }
}
