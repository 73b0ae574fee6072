import Foundation
import OnAirCore
import OnAirScenario
import OnAirTestSupport

/// Plays scenario files each in an `onair demo --headless` of its own, a few at a time, the longest first.
///
/// Why: a scenario is real-time waits (a call rings for seconds, a link stays down for 10 s, a server stalls
/// for 30 s) at a small cost in CPU — 86 s of CPU in 655 s of the mutation test's variants, about 0.13 of a
/// core each at the light settings; the weak signal's 720p about 0.3. Played one after another, the 22
/// shipped files took most of the scenario phase; three at a time use under one core of two and take about
/// as long as the longest file. Each run is a fresh demo on ports of its own (as each file of one run
/// already is), with a recording directory of its own, so no verdict depends on the others.
struct ScenarioPool {
    struct Played {
        let file: String
        let run: HeadlessRun
        let status: Int32
    }

    /// How many files play at once.
    let width: Int
    /// Each file's safety net, from its own start: far beyond what the longest file needs idle (~90 s).
    let timeout: Duration

    /// Plays `files` (names in `folder`), each with `arguments(file)` before its `--script`; returns one
    /// `Played` per file, in the order of `files`.
    func play(_ files: [String], in folder: URL, arguments: (String) -> [String], directory: TemporaryDirectory) async throws -> [Played] {
        var pending = files.sorted { Self.fixedSeconds(in: folder.appendingPathComponent($0)) > Self.fixedSeconds(in: folder.appendingPathComponent($1)) }
        var running: [(file: String, run: HeadlessRun, started: ContinuousClock.Instant)] = []
        var played: [String: Played] = [:]
        while !pending.isEmpty || !running.isEmpty {
            while running.count < width, !pending.isEmpty {
                let file = pending.removeFirst()
                let script = ["--script", folder.appendingPathComponent(file).path]
                running.append((file, try HeadlessRun(arguments(file) + script, in: directory), ContinuousClock.now))
            }
            running.removeAll { entry in
                if let status = entry.run.peer.terminationStatus {
                    played[entry.file] = Played(file: entry.file, run: entry.run, status: status)
                    return true
                }
                guard ContinuousClock.now - entry.started > timeout else { return false }
                played[entry.file] = Played(file: entry.file, run: entry.run, status: entry.run.peer.stop())
                return true
            }
            try await Task.sleep(for: .milliseconds(100))
        }
        return files.compactMap { played[$0] }
    }

    /// The seconds a file waits for certain (its `wait`s and the windows of the expectations it waits out,
    /// read by the scenario parser): its order in the queue, longest first, so that the longest does not
    /// start last. A file that does not parse is 0 (it fails at once anyway).
    static func fixedSeconds(in file: URL) -> Double {
        guard let text = try? String(contentsOf: file, encoding: .utf8),
              let scenario = try? ScenarioParser.parse(text, source: file.lastPathComponent) else { return 0 }
        let fixed = scenario.steps.reduce(Duration.zero) { total, step in
            switch step.action {
            case .wait(let duration): total + duration
            case .expect(let expectation) where expectation.waitsOut: total + expectation.within
            default: total
            }
        }
        return NumberText.seconds(fixed)
    }
}
