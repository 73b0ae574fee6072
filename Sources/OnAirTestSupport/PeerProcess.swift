import Foundation
import Synchronization

/// A real peer (nginx, ffmpeg, rtmpdump, gst-launch, the `onair` binary) run by a test.
///
/// Output goes to files in the test's directory, so a chatty peer never blocks on a full pipe and a
/// failing test can show the peer's log. The process is interrupted and reaped when the test stops it
/// or when this object goes away, so no peer outlives its test.
public final class PeerProcess: Sendable {
    public let name: String
    public let standardOutputURL: URL
    public let standardErrorURL: URL
    private let process: Mutex<Process>

    /// Starts `executable` (a name looked up on PATH, or a path) with `arguments`.
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
        FileManager.default.createFile(atPath: standardOutputURL.path, contents: nil)
        FileManager.default.createFile(atPath: standardErrorURL.path, contents: nil)
        let process = Process()
        process.executableURL = url
        process.arguments = arguments
        process.currentDirectoryURL = directory
        process.standardOutput = try FileHandle(forWritingTo: standardOutputURL)
        process.standardError = try FileHandle(forWritingTo: standardErrorURL)
        process.standardInput = standardInput ?? FileHandle.nullDevice
        if let environment {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
        }
        try process.run()
        self.process = Mutex(process)
    }

    deinit {
        stop()
    }

    public var processIdentifier: Int32 { process.withLock { $0.processIdentifier } }
    public var isRunning: Bool { process.withLock { $0.isRunning } }

    /// Sends `signal` (SIGINT by default: ffmpeg and rtmpdump then finish their files) and waits up to
    /// `grace` before killing. Returns the exit status.
    @discardableResult
    public func stop(signal: Int32 = SIGINT, grace: Duration = .seconds(5)) -> Int32 {
        process.withLock { process in
            guard process.isRunning else { return process.terminationStatus }
            kill(process.processIdentifier, signal)
            let deadline = ContinuousClock.now + grace
            while process.isRunning && ContinuousClock.now < deadline { Thread.sleep(forTimeInterval: 0.01) }
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
            return process.terminationStatus
        }
    }

    /// Waits for the process to exit by itself, up to `timeout`, then stops it. Returns the exit status.
    @discardableResult
    public func wait(timeout: Duration) -> Int32 {
        let deadline = ContinuousClock.now + timeout
        while isRunning && ContinuousClock.now < deadline { Thread.sleep(forTimeInterval: 0.01) }
        return stop()
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

    static func locate(_ executable: String) throws -> URL {
        if executable.contains("/") { return URL(fileURLWithPath: executable) }
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin"
        for directory in path.split(separator: ":").map(String.init) + ["/usr/sbin", "/sbin"] {
            let candidate = URL(fileURLWithPath: directory).appendingPathComponent(executable)
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        throw PeerError.notInstalled(executable)
    }
}
