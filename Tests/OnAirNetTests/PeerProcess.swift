import Foundation

/// A real peer program (nginx, ffmpeg, ffprobe, rtmpdump) started by a test, with its output in files.
///
/// ``stop()`` sends a signal, waits, and kills what is left; tests call it from `defer` so peers go away on
/// failure too.
final class PeerProcess: @unchecked Sendable {
    let process = Process()
    let stdoutURL: URL
    let stderrURL: URL
    let name: String

    /// Starts `executable` (looked up on PATH) with `arguments`, writing output beside `directory`.
    init(_ executable: String, _ arguments: [String], directory: URL, label: String? = nil) throws {
        name = label ?? executable
        stdoutURL = directory.appendingPathComponent("\(name).stdout")
        stderrURL = directory.appendingPathComponent("\(name).stderr")
        _ = FileManager.default.createFile(atPath: stdoutURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: stderrURL.path, contents: nil)
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [executable] + arguments
        process.currentDirectoryURL = directory
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = try FileHandle(forWritingTo: stdoutURL)
        process.standardError = try FileHandle(forWritingTo: stderrURL)
        try process.run()
    }

    var isRunning: Bool { process.isRunning }
    var stdout: String { (try? String(contentsOf: stdoutURL, encoding: .utf8)) ?? "" }
    var stderr: String { (try? String(contentsOf: stderrURL, encoding: .utf8)) ?? "" }

    /// Waits for the program to exit on its own; `nil` when it is still running at the deadline.
    func waitForExit(within duration: Duration) async -> Int32? {
        let deadline = ContinuousClock.now + duration
        while process.isRunning, ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(20))
        }
        return process.isRunning ? nil : process.terminationStatus
    }

    /// Signals the program (SIGTERM by default), then SIGKILL after two seconds if it is still there.
    func stop(signal: Int32 = SIGTERM) {
        guard process.isRunning else { return }
        kill(process.processIdentifier, signal)
        let deadline = Date().addingTimeInterval(2)
        while process.isRunning, Date() < deadline { usleep(10_000) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }
}
