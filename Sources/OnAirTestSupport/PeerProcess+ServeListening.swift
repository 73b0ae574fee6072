import Foundation

extension PeerProcess {
    /// The port `onair serve --headless --listen HOST:0` chose, from its first event, `listening`: the kernel
    /// picks a free port, so no other test can take it between a probe and the bind.
    ///
    /// Waits for the event, not a time: the 60 s bound is a safety net for a loaded 2-core machine running
    /// the whole suite, and a server that exits first ends the wait at once with what it printed.
    public func onairServeListeningPort() async throws -> Int {
        let deadline = ContinuousClock.now + .seconds(60)
        while ContinuousClock.now < deadline {
            if let line = standardOutput.split(separator: "\n").first,
               let event = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
               event["kind"] as? String == "listening",
               let port = (event["details"] as? [String: Any])?["port"] as? Int {
                return port
            }
            guard isRunning else { break }
            try await Task.sleep(for: .milliseconds(20))
        }
        throw PeerError.failed(
            "onair serve never said where it listens (running: \(isRunning), status: \(String(describing: terminationStatus))): "
                + "stdout \(standardOutput.prefix(300)) stderr \(standardError.prefix(300))")
    }
}
