import Foundation
import OnAirTestSupport
import Testing

/// Numbers and keys on the real binary's command line: never a trap, every usage error one line and exit 2.
@Suite("command-line numbers, usage errors and keys")
struct CommandLineNumberTests {
    @Test("huge, infinite or malformed numbers are one-line usage errors (exit 2), not traps", arguments: [
        ["serve", "--idle-timeout", "1e19"],
        ["serve", "--handshake-timeout", "1e300"],
        ["serve", "--idle-timeout", "inf"],
        ["publish", "rtmp://127.0.0.1:1/live/x", "--headless", "--duration", "1e19"],
        ["publish", "rtmp://127.0.0.1:1/live/x", "--headless", "--suspend-timeout", "1e19"],
        ["demo", "--headless", "--suspend-timeout", "nan"],
        ["demo", "--headless", "--duration", "-5"],
        ["subscribe", "rtmp://127.0.0.1:1/live/x", "--headless", "--stall-timeout", "1e308"],
        ["publish", "rtmp://127.0.0.1:1/live/x", "--headless", "--fps", "1e19"],
        ["publish", "rtmp://127.0.0.1:1/live/x", "--headless", "--preview-fps", "99"],
    ])
    func hugeNumbers(arguments: [String]) throws {
        let error = try Self.usageError(arguments)
        #expect(error.contains("--help"), "\(error)")
    }

    /// Issue 28 (10): the README promises a usage error "that names the range".
    @Test("a value out of range names the range, exit 2 in one line", arguments: [
        (["--bitrate", "-5"], "between 50k and 500M"),
        (["--bitrate", "100G"], "between 50k and 500M"),
        (["--audio-bitrate", "2M"], "between 16k and 512k"),
        (["--size", "0x0"], "between 16x16 and 4096x2304"),
        (["--duration", "1e19"], "from 1ms to 8784h"),
    ])
    func rangeStated(extra: [String], range: String) throws {
        let result = try OnAirBinary.run(["publish", "rtmp://127.0.0.1:1/live/x", "--headless"] + extra)
        #expect(result.status == 2, "\(extra): \(result.status) \(result.standardError)")
        #expect(result.standardError.contains(range), "\(result.standardError)")
        #expect(!result.standardError.contains("Missing value"), "\(result.standardError)")
        #expect(result.standardError.split(separator: "\n").count == 1, "\(result.standardError)")
    }

    /// ArgumentParser reads `-1` after an option as the next option; `.unconditional` hands it to the range check.
    @Test("a negative number is checked against the range, never 'Missing value'", arguments: [
        ["pattern", "--out", "/tmp/onair-negative.y4m", "--seconds", "-1"],
        ["pattern", "--out", "/tmp/onair-negative.y4m", "--fps", "-30"],
        ["serve", "--max-connections-per-address", "-1"],
        ["serve", "--audio-merge-ms", "-1"],
        ["serve", "--idle-timeout", "-1"],
        ["publish", "rtmp://127.0.0.1:1/live/x", "--headless", "--duration", "-1"],
        ["publish", "rtmp://127.0.0.1:1/live/x", "--headless", "--send-timeout", "-1"],
        ["publish", "rtmp://127.0.0.1:1/live/x", "--headless", "--audio-merge-ms", "-1"],
        ["publish", "rtmp://127.0.0.1:1/live/x", "--headless", "--link-delay", "-1"],
        ["publish", "rtmp://127.0.0.1:1/live/x", "--headless", "--link-cap", "-1"],
        ["publish", "rtmp://127.0.0.1:1/live/x", "--headless", "--fps", "-30"],
        ["subscribe", "rtmp://127.0.0.1:1/live/x", "--headless", "--pattern-epoch", "-1"],
        ["subscribe", "rtmp://127.0.0.1:1/live/x", "--headless", "--stall-timeout", "-1"],
    ])
    func negativeNumbers(arguments: [String]) throws {
        let error = try Self.usageError(arguments)
        #expect(!error.contains("Missing value"), "\(error)")
        #expect(error.contains("-1") || error.contains("-30"), "\(error)")
    }

    /// docs/usage.md: a bad value is a usage error. A source no resolver can name is one (a missing file or
    /// device is not: that is found when it is opened, exit 1).
    @Test("a --video or --audio value that names no kind of source is a usage error, exit 2 in one line", arguments: [
        (["publish", "rtmp://127.0.0.1:1/live/x", "--headless", "--video", "/tmp"], "--video"),
        (["publish", "rtmp://127.0.0.1:1/live/x", "--headless", "--video", "clip.mp4"], "--video"),
        (["publish", "rtmp://127.0.0.1:1/live/x", "--headless", "--audio", "/tmp/song.mp3"], "--audio"),
        (["demo", "--headless", "--video", "test", "--audio", "./tone"], "--audio"),
    ])
    func unknownSources(arguments: [String], option: String) throws {
        let error = try Self.usageError(arguments)
        #expect(error.contains("unknown source") && error.contains(option), "\(error)")
    }

    /// Headless draws no theme, but the command line is the same one the console takes: an unknown name is
    /// refused there too, before anything connects (port 1 would otherwise be a runtime error, exit 1).
    @Test("an unknown --theme is a usage error headless too", arguments: [
        ["publish", "rtmp://127.0.0.1:1/live/x", "--headless", "--theme", "no-such-theme"],
        ["subscribe", "rtmp://127.0.0.1:1/live/x", "--headless", "--theme", "no-such-theme"],
        ["demo", "--headless", "--theme", "no-such-theme"],
    ])
    func unknownThemeHeadless(arguments: [String]) throws {
        let error = try Self.usageError(arguments)
        #expect(error.contains("unknown theme 'no-such-theme'") && error.contains("monochrome"), "\(error)")
    }

    /// The demo's embedded relay makes `--record-dir` before anything starts: one that cannot be made is one
    /// line and exit 1 (a runtime condition, not a usage error), not a `recordingFailed` at each record publish.
    @Test("demo --record-dir that cannot be made stops at start, exit 1 in one line", .timeLimit(.minutes(2)))
    func demoRecordDirectory() throws {
        let directory = try TemporaryDirectory()
        try Data("in the way".utf8).write(to: directory.file("blocker"))
        let result = try OnAirBinary.run(["demo", "--headless", "--record-dir", directory.file("blocker").path], timeout: .seconds(60))
        #expect(result.status == 1, "\(result.standardError)")
        #expect(result.standardError.split(separator: "\n").count == 1, "\(result.standardError)")
        #expect(result.standardError.contains("cannot create record directory \(directory.file("blocker").path): Not a directory"), "\(result.standardError)")
    }

    /// Runs the binary with `arguments`, expects a usage error (exit 2) in one line, and returns it.
    static func usageError(_ arguments: [String]) throws -> String {
        let result = try OnAirBinary.run(arguments)
        #expect(result.status == 2, "\(arguments): \(result.status) \(result.standardError)")
        #expect(result.standardError.split(separator: "\n").count == 1, "\(result.standardError)")
        return result.standardError
    }

    @Test("ArgumentParser's own usage errors exit 2 in one line too", arguments: [
        ["publish"], ["serve", "--no-such-option"], ["demo", "--policy", "nonsense"], ["frobnicate"],
    ])
    func parserErrors(arguments: [String]) throws {
        let result = try OnAirBinary.run(arguments)
        #expect(result.status == 2, "\(arguments): \(result.status) \(result.standardError)")
        #expect(result.standardError.split(separator: "\n").count == 1, "\(result.standardError)")
    }

    /// `onair serve` on `port` with `options`, accepting connections.
    static func serve(port: Int, _ options: [String]) throws -> (PeerProcess, TemporaryDirectory) {
        let directory = try TemporaryDirectory()
        let serve = try PeerProcess(OnAirBinary.url.path, ["serve", "--listen", "127.0.0.1:\(port)"] + options, in: directory.url)
        try FreePort.waitUntilAccepting(port, timeout: .seconds(30), what: "onair serve")
        return (serve, directory)
    }

    /// Each run here must publish before its --duration ends it, as the checks read Publish.Start: 10 s, which is
    /// 20× an idle start (they were 1.5 s and 2 s, which a loaded machine's start-up could use up; issue 24).
    @Test("durations take units as scenario files write them: --duration 10000ms ends the run")
    func durationWithUnit() throws {
        let port = try FreePort.loopback()
        let (serve, workDirectory) = try Self.serve(port: port, ["--idle-timeout", "2m", "--headless"])
        defer { _ = serve.stop(); withExtendedLifetime(workDirectory) {} }
        let result = try OnAirBinary.run(
            ["publish", "rtmp://127.0.0.1:\(port)/live/unit", "--headless", "--size", "320x180", "--duration", "10000ms"], timeout: .seconds(120))
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput.contains("NetStream.Publish.Start"))
    }

    @Test("a key from ONAIR_STREAM_KEY or --stream-key-file publishes, and no output shows it or a live_ name")
    func keyFromEnvironmentAndFile() throws {
        let port = try FreePort.loopback()
        let key = "K3y9secretValue77"
        let (serve, directory) = try Self.serve(port: port, ["--publish-key", key, "--headless"])
        defer { _ = serve.stop() }
        let name = "live_123456789_AbCdEfGh"
        let fromEnvironment = try OnAirBinary.run(
            ["publish", "rtmp://127.0.0.1:\(port)/live/\(name)", "--headless", "--size", "320x180", "--duration", "10s"],
            environment: ["ONAIR_STREAM_KEY": key])
        #expect(fromEnvironment.status == 0, "\(fromEnvironment.standardError)")
        #expect(fromEnvironment.standardOutput.contains("NetStream.Publish.Start"), "\(fromEnvironment.standardOutput)")
        let all = fromEnvironment.standardOutput + fromEnvironment.standardError
        #expect(!all.contains(key))
        #expect(!all.contains(name), "a key-like stream name leaked:\n\(all.split(separator: "\n").filter { $0.contains(name) }.joined(separator: "\n"))")
        #expect(all.contains("publish *** type"), "the action line should show the redacted name")

        let file = directory.url.appendingPathComponent("key")
        try (key + "\n").write(to: file, atomically: true, encoding: .utf8)
        let fromFile = try OnAirBinary.run(
            ["publish", "rtmp://127.0.0.1:\(port)/live/fromfile", "--headless", "--size", "320x180", "--duration", "10s",
             "--stream-key-file", file.path])
        #expect(fromFile.status == 0, "\(fromFile.standardError)")
        #expect(fromFile.standardOutput.contains("NetStream.Publish.Start"))
        #expect(!(fromFile.standardOutput + fromFile.standardError).contains(key))
    }

    @Test("the app-form key URL is accepted and its key never printed")
    func appFormURL() throws {
        let port = try FreePort.loopback()
        let key = "AppF0rmSecret99"
        let (serve, workDirectory) = try Self.serve(port: port, ["--publish-key", key, "--headless"])
        defer { _ = serve.stop(); withExtendedLifetime(workDirectory) {} }
        let result = try OnAirBinary.run(
            ["publish", "rtmp://127.0.0.1:\(port)/live?key=\(key)/appform", "--headless", "--size", "320x180", "--duration", "10s"])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput.contains("NetStream.Publish.Start"), "\(result.standardOutput)")
        #expect(!(result.standardOutput + result.standardError).contains(key))
        let broken = try OnAirBinary.run(["publish", "rtmp://127.0.0.1:\(port)/live?key=\(key)/", "--headless"])
        #expect(broken.status == 2)
        #expect(!broken.standardError.contains(key), "\(broken.standardError)")
    }

    @Test("an unreadable or empty key file is one usage line (exit 2)")
    func badKeyFile() throws {
        let missing = try OnAirBinary.run(["publish", "rtmp://127.0.0.1:1/live", "--headless", "--stream-key-file", "/nonexistent/key"])
        #expect(missing.status == 2, "\(missing.standardError)")
        #expect(missing.standardError.split(separator: "\n").count == 1)
        let empty = try OnAirBinary.run(["publish", "rtmp://127.0.0.1:1/live", "--headless", "--stream-key-file", "/dev/null"])
        #expect(empty.status == 2, "\(empty.standardError)")
        #expect(empty.standardError.contains("holds no key"), "\(empty.standardError)")
    }

    /// `--publish-key "$KEY"` with KEY unset must not start a relay that takes any publisher.
    @Test("an empty --publish-key is one usage line (exit 2), not a relay without a key", arguments: ["", "  "])
    func emptyPublishKey(key: String) throws {
        let result = try OnAirBinary.run(
            ["serve", "--listen", "127.0.0.1:\(try FreePort.loopback())", "--publish-key", key, "--headless"], timeout: .seconds(30))
        #expect(result.status == 2, "\(result.standardError)")
        #expect(result.standardError == "onair serve: --publish-key is empty; give the key, or leave the option out to serve loopback without one\n")
    }

    @Test("small truths: --ca-file /dev/null holds no certificate; --script nonexistent is OnAir's own line")
    func smallTruths() throws {
        let ca = try OnAirBinary.run(["publish", "rtmps://127.0.0.1:1/live/x", "--headless", "--ca-file", "/dev/null", "--duration", "1"])
        #expect(ca.standardError.contains("holds no certificate"), "\(ca.standardError)")
        #expect(!ca.standardError.contains("permission denied"))
        let script = try OnAirBinary.run(["demo", "--headless", "--script", "/nonexistent/scenario.txt"])
        #expect(script.status == 2)
        #expect(script.standardError == "onair demo: --script /nonexistent/scenario.txt: no such file; give a scenario file (see Scenarios/README.md)\n")
    }
}
