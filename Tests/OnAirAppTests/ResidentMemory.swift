import Foundation

/// A process's resident set size from `/proc/PID/status` (`VmRSS`), sampled over a run.
struct ResidentMemory {
    private(set) var maximum = 0
    private(set) var first = 0
    private(set) var samples = 0

    mutating func record(_ kilobytes: Int) {
        if samples == 0 { first = kilobytes }
        maximum = max(maximum, kilobytes)
        samples += 1
    }

    /// `VmRSS` in kB, or nil once the process is gone.
    static func kilobytes(of pid: Int32) -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return nil }
        guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }) else { return nil }
        return line.split(whereSeparator: { $0 == " " || $0 == "\t" }).dropFirst().first.flatMap { Int($0) }
    }
}
