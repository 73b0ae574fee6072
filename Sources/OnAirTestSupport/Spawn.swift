import Foundation

/// Runs a short command whose output does not matter (tmux's client commands) to completion.
enum Spawn {
    static func run(_ executable: String, _ arguments: [String], timeout: Duration = .seconds(30)) throws -> Int32 {
        let peer = try PeerProcess(executable, arguments, in: FileManager.default.temporaryDirectory)
        defer {
            try? FileManager.default.removeItem(at: peer.standardOutputURL)
            try? FileManager.default.removeItem(at: peer.standardErrorURL)
        }
        return peer.wait(timeout: timeout)
    }
}
