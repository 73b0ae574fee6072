import Foundation
import OnAirTestSupport

/// `onair serve --headless` on a free loopback port, started by a test, with its events counted by kind
/// (one JSON object a line on stdout).
struct ServeRun {
    let run: HeadlessRun
    let port: Int

    init(in directory: TemporaryDirectory) throws {
        port = try FreePort.loopback()
        run = try HeadlessRun(["serve", "--listen", "127.0.0.1:\(port)", "--headless"], in: directory)
        try FreePort.waitUntilAccepting(port, timeout: .seconds(60), what: "onair serve")
    }

    func count(_ kind: String) -> Int { run.events.events.filter { $0.kind == kind }.count }

    /// Waits until the server has printed more than `seen` events of `kind`; returns how long that took
    /// from the call, or nil when `timeout` passed first.
    func waitForMore(_ kind: String, than seen: Int, within timeout: Duration) async throws -> Duration? {
        let start = ContinuousClock.now
        while ContinuousClock.now - start < timeout {
            if count(kind) > seen { return ContinuousClock.now - start }
            try await Task.sleep(for: .milliseconds(20))
        }
        return nil
    }

    func stop() { _ = run.peer.stop(signal: SIGKILL) }
}
