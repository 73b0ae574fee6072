import Foundation
import OnAirControl
import OnAirCore
import OnAirNet
import OnAirScenario

/// `onair demo --script FILE…`: plays each scenario file on a fresh demo (the embedded relay, or
/// `--server`), one after the other, headless or on the console, and with `--report` prints the policies
/// side by side. With `--compare-abr MODES` each file plays once per ABR mode, so `off` sits beside
/// `ladder` and `throughput` in the report.
///
/// Each scenario starts with the relay self-test (docs/design.md §3): a scenario that `requires notices` is
/// skipped, saying why, on a server that drops them (stock nginx-rtmp) — its flows cannot be shown there.
///
/// Exit status: 0 when every scenario passed, 1 when one failed (naming the first failed expectation, what
/// was seen instead, and its file and line), 3 when none failed but some were skipped, 2 for a file that
/// cannot be read or parsed (before anything runs).
public enum ScenarioFrontEnd {
    public static func run(files: [String], demo: DemoOptions, headless: Bool, report: Bool) async throws {
        let scenarios = try files.map(ScenarioFile.load)
        let clock = SessionClock()
        let writer = JSONLinesWriter()
        var rows: [ScenarioReport.Row] = []
        let modes: [AdaptiveBitrateConfiguration.Mode?] = demo.compareABR.isEmpty ? [nil] : demo.compareABR
        for file in scenarios {
            for mode in modes {
                var options = demo.applying(file.scenario.settings)
                if let mode { options.publisher.network.abr = mode }
                let row = try await play(file, demo: options, headless: headless, writer: writer, clock: clock)
                rows.append(row)
                if headless {
                    writer.write(OnAirEvent(time: clock.now, side: .app, .reported(kind: "scenario", details: row.headlessDetails(file: file.scenario.source))))
                }
            }
        }
        let table = ScenarioReport(rows: rows)
        if report {
            if headless {
                for row in rows {
                    writer.write(OnAirEvent(time: clock.now, side: .app, .reported(kind: "report", details: row.headlessReport)))
                }
            } else {
                write(table.text(width: 80))
            }
        }
        let failures = rows.compactMap { row -> String? in
            if case .failed(let reason) = row.outcome { return reason }
            return nil
        }
        if let first = failures.first {
            let more = failures.count > 1 ? " (and \(failures.count - 1) more failed)" : ""
            throw FrontEndExit(code: 1, message: "onair demo: scenario failed: \(first)\(more)")
        }
        let skipped = rows.compactMap { row -> String? in
            if case .skipped(let reason) = row.outcome { return "\(row.scenario): \(reason)" }
            return nil
        }
        if let first = skipped.first {
            throw FrontEndExit(code: RelayCheck.droppedExitCode, message: "onair demo: scenario skipped: \(first)")
        }
        if !headless && !report {
            write("\(rows.count == 1 ? "scenario" : "all \(rows.count) scenarios") passed: \(rows.map(\.scenario).joined(separator: ", "))")
        }
    }

    /// One scenario on a fresh demo: self-test, steps, then its report row.
    private static func play(_ file: ScenarioFile, demo: DemoOptions, headless: Bool, writer: JSONLinesWriter, clock: SessionClock) async throws -> ScenarioReport.Row {
        let scenario = file.scenario
        func row(_ outcome: ScenarioReport.Outcome, _ metrics: ScenarioMetrics = ScenarioMetrics(), _ recordings: [RecordingSummary] = []) -> ScenarioReport.Row {
            ScenarioReport.Row(
                scenario: scenario.title, policy: demo.publisher.policy, abr: demo.publisher.network.abr, outcome: outcome, metrics: metrics,
                recordings: recordings)
        }
        if headless {
            writer.write(OnAirEvent(time: clock.now, side: .app, .reported(kind: "scenario", details: [
                "file": .string(scenario.source), "title": .string(scenario.title), "policy": .string(demo.publisher.policy.rawValue),
                "abr": .string(demo.publisher.network.abr.rawValue), "steps": .integer(Int64(scenario.steps.count)),
            ])))
        }
        if scenario.settings.requirements.contains(.recording), demo.server != nil {
            return row(.skipped("it checks the embedded relay's recordings; run it without --server"))
        }
        if scenario.settings.requirements.contains(.relay), demo.server != nil {
            return row(.skipped("it presses server keys, which act on the embedded relay; run it without --server"))
        }
        if scenario.settings.outputs != nil, !demo.furtherServers.isEmpty {
            return row(.skipped("it sets its own destinations (`outputs`); run it without further --server or --also-publish"))
        }
        var played = demo
        if let outputs = scenario.settings.outputs { played.outputs = outputs }
        let destinations = try await DemoDestinations.start(played)
        let url = destinations.url

        let rtmp = try DemoFrontEnd.rtmpConfiguration(played, url: url) { _ in }
        let selfTest = await RelayCheck.selfTest(url: url, rtmp: rtmp, clock: clock, writer: headless ? writer : nil)
        switch selfTest {
        case .failed(let reason):
            await destinations.stop()
            return row(.failed("\(scenario.source): the relay self-test could not run on \(url.redacted): \(reason)"))
        case .dropped where scenario.settings.requirements.contains(.notices):
            await destinations.stop()
            return row(.skipped("\(url.redacted) drops send() notices, and this scenario needs them (\(RelayCheck.degraded.joined(separator: ", ")))"))
        case .relayed, .dropped:
            break
        }

        let observer = ScenarioObserver()
        let recordings = RecordingInspector(directory: URL(fileURLWithPath: played.recordDirectory), defaultName: played.stream, relay: destinations.relay)
        let driver = ScenarioDriver(file: file, observer: observer, clock: clock, recordings: recordings)
        let failure: ScenarioDriver.Failure?
        do {
            failure = if headless {
                try await DemoFrontEnd.runHeadless(played, destinations, writer: JSONLinesWriter(observer: observer.observe), clock: clock, script: driver)
            } else {
                try await DemoFrontEnd.runConsole(played, destinations, clock: clock, script: driver, notices: [selfTest.summary(url: url)])
            }
        } catch {
            await destinations.stop()
            throw error
        }
        await destinations.stop()
        let recorded = scenario.settings.requirements.contains(.recording) ? recordings.summary(of: nil).map { [$0] } ?? [] : []
        return row(failure.map { .failed($0.description) } ?? .passed, observer.metrics, recorded)
    }

    private static func write(_ text: String) {
        try? FileHandle.standardOutput.write(contentsOf: Data((text + "\n").utf8))
    }
}

extension DemoOptions {
    /// These options with a scenario's settings in place of the command line's.
    func applying(_ settings: ScenarioSettings) -> DemoOptions {
        var options = self
        if let policy = settings.policy { options.publisher.policy = policy }
        if let type = settings.publishType { options.publisher.initialType = type }
        if let timeout = settings.suspendTimeout { options.publisher.suspendTimeout = timeout.seconds }
        if let delay = settings.reconnectDelay { options.reconnectDelay = delay.seconds }
        if let timeout = settings.stallTimeout { options.stallTimeout = timeout.seconds }
        if let abr = settings.abr { options.publisher.network.abr = abr }
        if let bitrate = settings.bitrate { options.publisher.engine.bitrate = String(bitrate) }
        if let size = settings.size { options.publisher.engine.size = size.text }
        if let rate = settings.framesPerSecond { options.publisher.engine.framesPerSecond = Double(rate) }
        if let video = settings.video { options.publisher.engine.video = video.rawValue }
        if let mode = settings.backgroundVideo { options.publisher.engine.backgroundVideo = mode }
        return options
    }
}

extension Duration {
    var seconds: Double { Double(milliseconds) / 1000 }
}
