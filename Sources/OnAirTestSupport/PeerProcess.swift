import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// glibc's `posix_spawn_file_actions_addclosefrom_np` (2.34+), which the Glibc module does not export.
@_silgen_name("posix_spawn_file_actions_addclosefrom_np")
private func spawnActionsCloseFrom(_ actions: UnsafeMutablePointer<posix_spawn_file_actions_t>, _ from: Int32) -> Int32

/// A real peer (nginx, ffmpeg, rtmpdump, gst-launch, the `onair` binary) run by a test.
///
/// Started with `posix_spawn`, not Foundation's `Process`, for two reasons measured here: a test thread
/// runs with most signals blocked and `Process` passes that mask on, so SIGINT never reached ffmpeg or
/// rtmpdump and their files were never finished; and `Process` learns of an exit through a descriptor
/// that a daemonising child (tmux's server) inherits, so it waited for the daemon. Here the child starts
/// with an empty mask and default handlers, and `waitpid` on its own pid tells when it ends.
///
/// Output goes to files in the test's directory, so a chatty peer never blocks on a full pipe and a
/// failing test can show the peer's log. The process is stopped and reaped when the test stops it or
/// when this object goes away, so no peer outlives its test.
public final class PeerProcess: Sendable {
    public let name: String
    public let standardOutputURL: URL
    public let standardErrorURL: URL
    public let processIdentifier: pid_t
    private let exitStatus = Mutex<Int32?>(nil)

    /// Starts `executable` (a name looked up on PATH, or a path) with `arguments` in `directory`.
    public init(
        _ executable: String,
        _ arguments: [String],
        in directory: URL,
        standardInput: FileHandle? = nil,
        environment: [String: String]? = nil
    ) throws {
        let url = try Self.locate(executable)
        name = url.lastPathComponent
        let stamp = UUID().uuidString.prefix(8)
        standardOutputURL = directory.appendingPathComponent("\(name)-\(stamp).out")
        standardErrorURL = directory.appendingPathComponent("\(name)-\(stamp).err")

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if let standardInput {
            posix_spawn_file_actions_adddup2(&actions, standardInput.fileDescriptor, 0)
        } else {
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        }
        posix_spawn_file_actions_addopen(&actions, 1, standardOutputURL.path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_addopen(&actions, 2, standardErrorURL.path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        // Nothing else of the test process: NIO accepts sockets without FD_CLOEXEC, so a peer started while an
        // in-process relay held a connection kept a copy of that socket, and the relay's close sent no FIN until
        // the peer exited (seen as a silent client "not closed" for the 90 s of an ffmpeg run; issue 24).
        _ = spawnActionsCloseFrom(&actions, 3)

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        var allSignals = sigset_t()
        sigfillset(&allSignals)
        posix_spawnattr_setsigdefault(&attributes, &allSignals)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        var variables = ProcessInfo.processInfo.environment
        if let environment { variables.merge(environment) { _, new in new } }
        // GNU env changes directory and then execs the peer in place (same pid, so signals reach it);
        // posix_spawn's own chdir action is not visible to Swift on this libc.
        let launcher = "/usr/bin/env"
        let argv: [UnsafeMutablePointer<CChar>?] = ([launcher, "-C", directory.path, url.path] + arguments).map { strdup($0) } + [nil]
        let envp: [UnsafeMutablePointer<CChar>?] = variables.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, launcher, &actions, &attributes, argv, envp)
        guard spawned == 0 else { throw PeerError.system("posix_spawn \(executable)", spawned) }
        processIdentifier = pid
    }

    deinit {
        stop()
    }

    /// Whether the process still runs (reaps it once it has ended).
    public var isRunning: Bool { reap(blocking: false) == nil }

    /// The exit status once ended: the code, or 128 + the signal that ended it (as a shell reports it).
    public var terminationStatus: Int32? { reap(blocking: false) }

    /// Sends `signal` (SIGINT by default: ffmpeg and rtmpdump then finish their files) and waits up to
    /// `grace` before killing. Returns the exit status. A process that handles the signal ends as soon as it
    /// has finished, so the grace is only a safety net: it was 5 s, which a loaded machine could use up while
    /// onair wrote its `stopped` summary (the counters tests read) or ffmpeg its file's index (issue 24).
    @discardableResult
    public func stop(signal: Int32 = SIGINT, grace: Duration = .seconds(30)) -> Int32 {
        if let status = reap(blocking: false) { return status }
        kill(processIdentifier, signal)
        let deadline = ContinuousClock.now + grace
        while ContinuousClock.now < deadline {
            if let status = reap(blocking: false) { return status }
            usleep(5_000)
        }
        kill(processIdentifier, SIGKILL)
        return reap(blocking: true) ?? -1
    }

    /// Waits for the process to exit by itself, up to `timeout`, then stops it. Returns the exit status.
    @discardableResult
    public func wait(timeout: Duration) -> Int32 {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if let status = reap(blocking: false) { return status }
            usleep(5_000)
        }
        return stop()
    }

    /// Waits for the process to exit by itself, up to `timeout`, then stops it; returns the exit status.
    /// The async form of ``wait(timeout:)``: a long wait must not hold one of Swift Testing's few pool
    /// threads (two on a 2-core machine), or every async test in the run stalls behind it.
    @discardableResult
    public func exitStatus(within timeout: Duration) async -> Int32 {
        if let status = await waitForExit(within: timeout) { return status }
        return stop()
    }

    /// Waits for the process to exit by itself; nil when it still runs at the deadline (it is left running).
    public func waitForExit(within duration: Duration) async -> Int32? {
        let deadline = ContinuousClock.now + duration
        while ContinuousClock.now < deadline {
            if let status = reap(blocking: false) { return status }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return reap(blocking: false)
    }

    public var standardOutput: String { (try? String(contentsOf: standardOutputURL, encoding: .utf8)) ?? "" }
    public var standardError: String { (try? String(contentsOf: standardErrorURL, encoding: .utf8)) ?? "" }

    /// Runs `executable` to completion (or `timeout`) and returns its exit status and output.
    public static func run(
        _ executable: String,
        _ arguments: [String],
        in directory: URL,
        timeout: Duration = .seconds(60)
    ) throws -> (status: Int32, output: String, error: String) {
        let peer = try PeerProcess(executable, arguments, in: directory)
        let status = peer.wait(timeout: timeout)
        return (status, peer.standardOutput, peer.standardError)
    }

    /// The async form of ``run(_:_:in:timeout:)``, which async code gets: waiting for a tool (an ffmpeg encode,
    /// GStreamer playing a stream) must not hold one of Swift Testing's few pool threads (two on a 2-core
    /// machine) — with two such waits at once every other test's tasks stall, and a relay test's publisher,
    /// starved past the relay's 5 s idle timeout, was dropped as idle.
    public static func run(
        _ executable: String,
        _ arguments: [String],
        in directory: URL,
        timeout: Duration = .seconds(60)
    ) async throws -> (status: Int32, output: String, error: String) {
        let peer = try PeerProcess(executable, arguments, in: directory)
        let status = await peer.exitStatus(within: timeout)
        return (status, peer.standardOutput, peer.standardError)
    }

    /// The exit status if the process has ended, reaping it the first time.
    private func reap(blocking: Bool) -> Int32? {
        exitStatus.withLock { stored in
            if let stored { return stored }
            var status: Int32 = 0
            var result: pid_t
            repeat {
                result = waitpid(processIdentifier, &status, blocking ? 0 : WNOHANG)
            } while result < 0 && errno == EINTR
            if result == 0 { return nil }
            // ECHILD: already reaped elsewhere; the process is gone either way.
            let code: Int32 = result < 0 ? -1 : ((status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f))
            stored = code
            return code
        }
    }

    static func locate(_ executable: String) throws -> URL {
        if executable.contains("/") { return URL(fileURLWithPath: executable) }
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        for directory in path.split(separator: ":").map(String.init) + ["/usr/sbin", "/sbin"] {
            let candidate = URL(fileURLWithPath: directory).appendingPathComponent(executable)
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        throw PeerError.notInstalled(executable)
    }
}
