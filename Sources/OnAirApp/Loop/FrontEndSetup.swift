import Foundation
import OnAirConsole
import OnAirControl
import OnAirTerminal
import OnAirCore
import OnAirMedia
import OnAirNet

/// The start-up steps front ends share, each failing with a one-line message and the right exit status.
enum FrontEndSetup {
    /// Parses an RTMP URL; a wrong one is a usage error (exit 2).
    static func streamURL(_ text: String, command: String) throws -> StreamURL {
        do {
            return try StreamURL(text)
        } catch {
            throw FrontEndExit(code: 2, message: "onair \(command): \(error)")
        }
    }

    /// The RTMP client configuration for `url`: for `rtmps://`, trust only the CAs of `caFile` when given
    /// (a missing, unreadable or non-PEM file is a usage error, exit 2), the system's roots otherwise.
    /// A `caFile` with a plain `rtmp://` URL is harmless: it is not read, and `notice` says so.
    static func rtmpConfiguration(
        url: StreamURL,
        caFile: String?,
        command: String,
        notice: (String) -> Void
    ) throws -> RTMPClient.Configuration {
        var configuration = RTMPClient.Configuration()
        guard let caFile else { return configuration }
        guard url.usesTLS else {
            notice("--ca-file \(caFile) is not used: \(url.redacted) is plain rtmp:// (no TLS)")
            return configuration
        }
        do {
            configuration.tls = try RTMPTLSConfiguration(caFile: caFile)
        } catch {
            throw FrontEndExit(code: 2, message: "onair \(command): \(error)")
        }
        return configuration
    }

    /// Resolves the sources and builds the engine; bad values are usage errors (exit 2), devices that
    /// cannot be opened are runtime errors (exit 1). Notices (a missing camera replaced by the test
    /// pattern) go to `notice`.
    static func engine(_ settings: EngineSettings, command: String, notice: (String) -> Void) throws -> MediaEngine {
        let configuration: MediaEngineConfiguration
        do {
            let (resolved, notices) = try settings.configuration()
            notices.forEach(notice)
            configuration = resolved
        } catch let error as MediaError {
            // A value the operator typed wrong (a size, a source no resolver can name) is a usage error; a
            // device or file that cannot be used is not.
            switch error {
            case .invalidConfiguration, .invalidSource: throw FrontEndExit(code: 2, message: "onair \(command): \(error)")
            default: throw FrontEndExit(code: 1, message: "onair \(command): \(error)")
            }
        } catch {
            throw FrontEndExit(code: 1, message: "onair \(command): \(error)")
        }
        do {
            return try MediaEngine(configuration)
        } catch {
            throw FrontEndExit(code: 1, message: "onair \(command): \(error)")
        }
    }

    /// `--log FILE` opened for writing (created or truncated); one that cannot be is a usage error (exit 2).
    static func eventLog(_ path: String?, command: String) throws -> JSONLinesWriter? {
        guard let path else { return nil }
        guard FileManager.default.createFile(atPath: path, contents: nil), let handle = FileHandle(forWritingAtPath: path) else {
            throw FrontEndExit(code: 2, message: "onair \(command): --log \(path): cannot create it; give a path in a writable directory")
        }
        return JSONLinesWriter(handle: handle)
    }

    /// The headless writer on stdout, copying every event to `--log FILE` when given.
    static func headlessWriter(logFile: String?, command: String, observer: (@Sendable (OnAirEvent) -> Void)? = nil) throws -> JSONLinesWriter {
        guard let log = try eventLog(logFile, command: command) else { return JSONLinesWriter(observer: observer) }
        return JSONLinesWriter { event in
            observer?(event)
            log.write(event)
        }
    }

    /// A positive number of seconds; anything else is a usage error (exit 2).
    static func seconds(_ value: Double, option: String, command: String) throws -> Duration {
        do {
            return try CommandLineValue.seconds(value, option: option)
        } catch {
            throw FrontEndExit(code: 2, message: "onair \(command): \(error)")
        }
    }

    /// Loads the console theme; an unknown name or a malformed file is a usage error (exit 2) whose
    /// message lists the themes found or names the file and line.
    static func theme(_ name: String, command: String) throws -> (theme: Theme, warnings: [String]) {
        do {
            let result = try ThemeCatalog.standard().load(name)
            return (result.theme, result.warnings.map { "\($0)" })
        } catch {
            throw FrontEndExit(code: 2, message: "onair \(command): \(error)")
        }
    }
}
