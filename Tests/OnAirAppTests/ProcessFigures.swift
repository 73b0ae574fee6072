import Foundation
import OnAirTestSupport

/// Peak resident memory (`VmHWM`) and CPU time (`utime + stime`) of a running process, read from `/proc`
/// while a test waits for it: the before/after figures of the hostile-server tests (issue 29).
struct ProcessFigures: CustomStringConvertible {
    var peakKilobytes = 0
    var cpuSeconds = 0.0

    var description: String { "peak RSS \(peakKilobytes / 1024) MB, CPU \(String(format: "%.1f", cpuSeconds)) s" }

    /// Samples `pid` now; false once it is gone.
    @discardableResult
    mutating func sample(_ pid: pid_t) -> Bool {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
              let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8) else { return false }
        if let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
           let value = line.split(whereSeparator: { $0 == " " || $0 == "\t" }).dropFirst().first.flatMap({ Int($0) }) {
            peakKilobytes = max(peakKilobytes, value)
        }
        // Fields after the command's closing parenthesis: state is field 3, utime 14, stime 15.
        if let close = stat.lastIndex(of: ")") {
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            if fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) {
                cpuSeconds = (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
            }
        }
        return true
    }

    /// Waits (sampling every 20 ms) for `peer` to exit, up to `timeout`; nil status when it still runs.
    static func watch(_ peer: PeerProcess, within timeout: Duration, figures: inout ProcessFigures) async -> Int32? {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            figures.sample(peer.processIdentifier)
            if let status = peer.terminationStatus { return status }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return peer.terminationStatus
    }
}
