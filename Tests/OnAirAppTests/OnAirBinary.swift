import Foundation

/// Runs the real `onair` executable that `swift build` put next to the test bundle.
struct OnAirBinary {
    struct Result {
        var status: Int32
        var standardOutput: String
        var standardError: String
    }

    /// `.build/<config>/onair`, found from the test bundle's location; `ONAIR_TEST_BINARY` names another
    /// (an older build, to take before/after figures with the same tests).
    static var url: URL {
        if let other = ProcessInfo.processInfo.environment["ONAIR_TEST_BINARY"], !other.isEmpty { return URL(fileURLWithPath: other) }
        var directory = Bundle.main.bundleURL
        for _ in 0..<4 where !FileManager.default.fileExists(atPath: directory.appendingPathComponent("onair").path) {
            directory = directory.deletingLastPathComponent()
        }
        return directory.appendingPathComponent("onair")
    }

    /// Runs to the end, or until `timeout` (a bound against hangs, not a verdict: 300 s by default, far above
    /// any run here) stops the child.
    static func run(_ arguments: [String], environment: [String: String] = [:], timeout: Duration = .seconds(300)) throws -> Result {
        let process = Process()
        process.executableURL = url
        process.arguments = arguments
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
        }
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        // The deadline is kept while the pipes are read: a child that never exits (a server that should have
        // refused to start) is stopped — SIGTERM, then SIGKILL 5 s later — so its pipes end and the test fails
        // instead of hanging on the read.
        let seconds = Double(timeout.components.seconds) + Double(timeout.components.attoseconds) / 1e18
        let terminate = DispatchWorkItem { if process.isRunning { process.terminate() } }
        let kill = DispatchWorkItem { if process.isRunning { Foundation.kill(process.processIdentifier, SIGKILL) } }
        DispatchQueue.global().asyncAfter(deadline: .now() + seconds, execute: terminate)
        DispatchQueue.global().asyncAfter(deadline: .now() + seconds + 5, execute: kill)
        // Read both pipes to the end before waiting, so a chatty child never blocks on a full pipe.
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        let errData = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        terminate.cancel()
        kill.cancel()
        return Result(
            status: process.terminationStatus,
            standardOutput: String(decoding: outData, as: UTF8.self),
            standardError: String(decoding: errData, as: UTF8.self)
        )
    }
}
