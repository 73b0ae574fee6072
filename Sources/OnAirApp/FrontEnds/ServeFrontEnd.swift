import Dispatch
import Foundation
import OnAirControl
import OnAirCore
import OnAirRelay

/// `onair serve`: runs the embedded relay until SIGINT or SIGTERM, printing what it does — JSON Lines on
/// stdout with `--headless` (``OnAirEvent``, side `relay`), readable lines on stderr otherwise.
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
        /// `--publish-key-file`: the key is the file's first line.
        public var publishKeyFile: String?
        /// `ONAIR_PUBLISH_KEY`, used when neither option gives a key.
        public var environmentPublishKey: String?
        /// 0: never.
        public var connectIdleTimeout: Double = 15
        /// 0: loopback is always exempt from the per-address limit.
        public var loopbackExemptionLimit = 256
        /// `by-type`, `all` or `none` (``RelayConfiguration/RecordMode``).
        public var recordMode = RelayConfiguration.RecordMode.byType.rawValue
        /// `--no-tcp-nodelay`: let the kernel coalesce small writes to players, as nginx-rtmp does (issue 31).
        public var tcpNoDelay = true
        /// `--record-dir` was on the command line: recordings are wanted there, so it is created at start-up.
        public var recordDirectoryGiven = false

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
    /// The environment variable a publish key may come from (GitHub issue 14 item 9: keys not in argv).
    public static let publishKeyVariable = "ONAIR_PUBLISH_KEY"

    public init(options: Options) {
        self.options = options
    }

    /// The relay configuration for these options, or a one-line exit.
    public func configuration() throws(FrontEndExit) -> RelayConfiguration {
        var configuration: RelayConfiguration
        do {
            configuration = try RelayConfiguration(listen: options.listen, publishKey: try publishKey())
        } catch let exit as FrontEndExit {
            throw exit
        } catch {
            throw FrontEndExit(code: 2, message: "onair serve: \(error)")
        }
        guard options.connectIdleTimeout >= 0, options.connectIdleTimeout.isFinite, options.connectIdleTimeout < 1e6 else {
            throw FrontEndExit(code: 2, message: "onair serve: --connect-idle-timeout must be 0 (off) or a number of seconds below 1000000, got \(options.connectIdleTimeout)")
        }
        configuration.connectIdleTimeout = options.connectIdleTimeout == 0 ? nil : .milliseconds(Int64(options.connectIdleTimeout * 1000))
        guard options.loopbackExemptionLimit >= 0 else {
            throw FrontEndExit(code: 2, message: "onair serve: --loopback-exemption-limit must be 0 (never limit loopback) or more, got \(options.loopbackExemptionLimit)")
        }
        configuration.loopbackExemptionLimit = options.loopbackExemptionLimit == 0 ? nil : options.loopbackExemptionLimit
        // Under a second kicks every publisher between two frames; below a millisecond it rounded to 0 and
        // silently meant "never" (issue 29 item 7).
        guard options.idleTimeout == 0 || (options.idleTimeout >= 1 && options.idleTimeout <= 86_400) else {
            throw FrontEndExit(code: 2, message: "onair serve: --idle-timeout must be 0 (off) or from 1 to 86400 seconds, got \(options.idleTimeout)")
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
        configuration.tcpNoDelay = options.tcpNoDelay
        configuration.recordDirectory = URL(fileURLWithPath: options.recordDirectory)
        guard let mode = RelayConfiguration.RecordMode(rawValue: options.recordMode) else {
            let modes = RelayConfiguration.RecordMode.allCases.map(\.rawValue).joined(separator: ", ")
            throw FrontEndExit(code: 2, message: "onair serve: --record takes \(modes), got \"\(options.recordMode)\"")
        }
        configuration.recordMode = mode
        return configuration
    }

    /// The publish key from `--publish-key`, `--publish-key-file` (first line) or `ONAIR_PUBLISH_KEY`, in that
    /// order; giving both options is a usage error, as is an unreadable or empty key file, or an empty
    /// `--publish-key` (`--publish-key "$KEY"` with KEY unset would otherwise serve with no key at all).
    func publishKey() throws(FrontEndExit) -> String? {
        if options.publishKey != nil && options.publishKeyFile != nil {
            throw FrontEndExit(code: 2, message: "onair serve: give --publish-key or --publish-key-file, not both")
        }
        if let key = options.publishKey, key.allSatisfy(\.isWhitespace) {
            throw FrontEndExit(code: 2, message: "onair serve: --publish-key is empty; give the key, or leave the option out to serve loopback without one")
        }
        if let path = options.publishKeyFile {
            guard let data = FileManager.default.contents(atPath: path), data.count <= 4096,
                  let text = String(data: data, encoding: .utf8) else {
                throw FrontEndExit(code: 2, message: "onair serve: cannot read a key from --publish-key-file \(path) (missing, unreadable, or over 4 KiB)")
            }
            let key = text.split(whereSeparator: \.isNewline).first.map { $0.trimmingCharacters(in: .whitespaces) } ?? ""
            guard !key.isEmpty else {
                throw FrontEndExit(code: 2, message: "onair serve: --publish-key-file \(path) holds no key on its first line")
            }
            return key
        }
        return options.publishKey ?? options.environmentPublishKey.flatMap { $0.isEmpty ? nil : $0 }
    }

    /// Creates the record directory now when recordings are certain to be wanted (`--record all`, or
    /// `--record-dir` given), so one that can never be written stops the start with one line instead of a
    /// `recordingFailed` at every publish. With the defaults nothing is created until something records.
    func prepareRecordDirectory(_ configuration: RelayConfiguration) throws(FrontEndExit) {
        guard let directory = configuration.recordDirectory, configuration.recordMode != .none,
              configuration.recordMode == .all || options.recordDirectoryGiven else { return }
        do {
            try RelayRecordDirectory.prepare(directory.path)
        } catch {
            throw FrontEndExit(code: 1, message: "onair serve: \(error); give --record-dir a directory you can write, or --record none")
        }
    }

    /// Serves until SIGINT/SIGTERM.
    public func run() async throws {
        let configuration = try configuration()
        try prepareRecordDirectory(configuration)
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
