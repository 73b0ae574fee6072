import Foundation
import OnAirTestSupport
import Testing

/// `onair demo --script`: the shipped scenarios played by the real binary against the embedded relay and
/// against nginx-rtmp, a deliberately wrong expectation, and the JSON Lines of a full run checked against
/// the documented schema by an independent validator (python3-jsonschema).
@Suite("scenario runs", .serialized)
struct ScenarioRunTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let scenarios = repository.appendingPathComponent("Scenarios")
    static let schema = repository.appendingPathComponent("docs/headless-events.schema.json")
    /// Small pictures keep two encoders and a decoder light on a shared 2-core machine; the flows are the same.
    static let light = ["--size", "320x180", "--fps", "15", "--bitrate", "300k"]

    static var shipped: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: scenarios.path)) ?? []).filter { $0.hasSuffix(".scenario") }.sorted()
    }

    /// What `make test` plays against the embedded relay: every shipped scenario.
    static var played: [String] { shipped }

    /// Plays the shipped files three at a time, each in a demo of its own (``ScenarioPool``: real-time waits,
    /// little CPU); 900 s for each file is far beyond the ~90 s of the longest.
    static let pool = ScenarioPool(width: 3, timeout: .seconds(900))

    private func results(_ run: HeadlessRun) -> [String: String] { results(run.events.events) }

    private func results(_ events: [HeadlessRun.Event]) -> [String: String] {
        Dictionary(events.filter { $0.kind == "scenario" && $0.details["result"] != nil }.map {
            (URL(fileURLWithPath: $0.details["file"] as? String ?? "").lastPathComponent, $0.details["result"] as? String ?? "")
        }, uniquingKeysWith: { _, last in last })
    }

    @Test("every shipped scenario passes against the embedded relay (each in a demo of its own, three at a time), and their JSON Lines validate against the schema")
    func shippedScenariosPass() async throws {
        let directory = try TemporaryDirectory()
        #expect(Self.shipped.count >= 12)
        let played = try await Self.pool.play(Self.played, in: Self.scenarios, arguments: { file in
            ["demo", "--headless", "--report", "--record-dir", directory.file("rec-\(file)").path] + Self.light
        }, directory: directory)
        // The weak-signal scenario alone is 720p at 2500k for about 85 s (its settings override `light`), the
        // server stall about 45 s, the two multi-destination scenarios about 50 s each.
        for file in played {
            let failed = file.run.events.events.filter { $0.kind == "expectation" && $0.details["met"] as? Bool == false }
            #expect(file.status == 0, "\(file.file): exit \(file.status): \(file.run.peer.standardError)\nfailed: \(failed.map(\.details))")
        }
        let events = played.flatMap { $0.run.events.events }
        #expect(played.map(\.file) == Self.played)
        #expect(results(events) == Dictionary(uniqueKeysWithValues: Self.played.map { ($0, "passed") }))

        let reports = events.filter { $0.kind == "report" }
        #expect(reports.count == Self.played.count)
        let checks = events.filter { $0.kind == "check" }
        #expect(checks.count == Self.played.count && checks.allSatisfy { $0.details["verdict"] as? String == "relayed" },
                "the self-test must find the embedded relay relaying notices: \(checks.map(\.details))")
        let blog2 = reports.first { ($0.details["scenario"] as? String ?? "").hasPrefix("Blog 2") }
        let recording = (blog2?.details["recordings"] as? [[String: Any]])?.first
        #expect((6300...7700).contains(recording?["durationMs"] as? Int ?? 0), "Blog 2's recording: \(String(describing: recording))")
        // The network scenarios' figures, measured on the subscriber: the elevator's gap is the 10 s the link
        // was down (and its picture came back within the expectation's 3 s); the weak signal converged, and
        // from then on its picture never stopped.
        let elevator = reports.first { ($0.details["scenario"] as? String ?? "").hasPrefix("Elevator") }
        #expect((9500...16000).contains(elevator?.details["longestVideoGapMs"] as? Int ?? 0), "elevator: \(String(describing: elevator?.details))")
        let weak = reports.first { ($0.details["scenario"] as? String ?? "").hasPrefix("Weak signal") }
        #expect(weak?.details["abr"] as? String == "throughput")
        #expect((weak?.details["longestGapAfterConvergingMs"] as? Int ?? .max) < 400, "weak signal: \(String(describing: weak?.details))")
        #expect((weak?.details["underCap"] as? [[String: Any]])?.first?["cap"] as? Int == 800_000)

        // Every run's JSON Lines, one file after another.
        let output = directory.file("runs.jsonl")
        let lines = played.flatMap { $0.run.peer.standardOutput.split(separator: "\n") }
        try Data(lines.map { $0 + "\n" }.joined().utf8).write(to: output)
        let validation = try await SchemaValidator.validate(output, against: Self.schema, in: directory)
        #expect(validation.status == 0, "the JSON Lines do not follow docs/headless-events.schema.json:\n\(validation.output)\(validation.error)")
        #expect(validation.output.contains("valid \(lines.count) lines"))
    }

    @Test("the schema validator rejects a line that breaks the documented schema (so the check above can fail)")
    func schemaRejectsBrokenLines() async throws {
        let directory = try TemporaryDirectory()
        let lines = [
            #"{"time":1,"side":"publisher","kind":"state","details":{"status":"FLYING","lifecycle":"ACTIVE","policy":"tap-republish","publishType":"live","pauseVideo":false,"pauseAudio":false,"tapArmed":false,"stream":"s"}}"#,
            #"{"time":1,"side":"app","kind":"expectation","details":{"line":3,"expect":"x","met":false,"afterMs":1}}"#,
            #"{"time":-1,"side":"app","kind":"quit","details":{"reason":"x"}}"#,
            #"{"time":1,"side":"publisher","kind":"toast","details":{}}"#,
        ]
        for (index, line) in lines.enumerated() {
            let file = directory.file("bad\(index).jsonl")
            try Data((line + "\n").utf8).write(to: file)
            let validation = try await SchemaValidator.validate(file, against: Self.schema, in: directory)
            #expect(validation.status == 1, "accepted a broken line: \(line)\n\(validation.output)\(validation.error)")
        }
    }

    @Test("against nginx-rtmp: the self-test reports dropped notices, scenarios that need them are skipped, the rest pass")
    func againstNginx() async throws {
        let nginx = try NginxRTMPServer()
        let directory = try TemporaryDirectory()
        let carried = [
            "background-audio-within-timeout.scenario", "background-audio-beyond-timeout.scenario", "subscriber-background.scenario",
            "network-elevator.scenario", "network-handoff.scenario",
        ]
        let needsNotices = "testbed-decline-tap.scenario"
        let scripts = (carried + [needsNotices]).flatMap { ["--script", Self.scenarios.appendingPathComponent($0).path] }
        let run = try HeadlessRun(["demo", "--headless", "--server", nginx.url(stream: "scenario")] + Self.light + scripts, in: directory)
        let status = await run.peer.exitStatus(within: .seconds(360))
        #expect(status == 3, "exit \(status): \(run.peer.standardError)")
        #expect(run.peer.standardError.contains("drops send() notices"), "stderr: \(run.peer.standardError)")
        var expected = Dictionary(uniqueKeysWithValues: carried.map { ($0, "passed") })
        expected[needsNotices] = "skipped"
        #expect(results(run) == expected, "failed: \(run.events.events.filter { $0.kind == "expectation" && $0.details["met"] as? Bool == false }.map(\.details))")
        let verdicts = run.events.events.filter { $0.kind == "check" }.map { $0.details["verdict"] as? String ?? "" }
        #expect(verdicts == Array(repeating: "dropped", count: carried.count + 1))
    }

    /// The weak signal with its cap shortened from 60 s to about 20 s (the shipped file runs in full above), so
    /// the A/B fits the test budget; this test checks the comparison under the cap, the shipped file's own
    /// timings are checked by `shippedScenariosPass`. The fixed 20 s settle becomes 8 s and then a wait for the
    /// picture at full rate (more than 25 frames in a second, within 20 s), so the 10 s window starts once
    /// throughput has converged, whatever the machine's speed; `off` never decodes 25 frames a second under the
    /// cap and fails that frame-rate check. The bitrate checks before the window (above 2 Mbit/s at the start,
    /// below the cap after it) get 30 s instead of 10: they are met in 1–3 s idle and under two CPU hogs. Why:
    /// a clean clone and a local run saw throughput's run fail 13–15 s after it began, which is where those
    /// checks and the first second of the old fixed window end (which one failed was not recorded then; the
    /// result check below now names it).
    static func shortWeakSignal(in directory: TemporaryDirectory) throws -> URL {
        let shipped = try String(contentsOf: scenarios.appendingPathComponent("network-weak-signal.scenario"), encoding: .utf8)
        let short = shipped.replacingOccurrences(of: "wait 20s\n", with: "wait 8s\nexpect subscriber fps above 25 within 20s\n")
            .replacingOccurrences(of: "expect subscriber fps above 15 for 38s", with: "expect subscriber fps above 15 for 10s")
            .replacingOccurrences(of: "bitrate above 2000000 within 10s", with: "bitrate above 2000000 within 30s")
            .replacingOccurrences(of: "bitrate below 800000 within 10s", with: "bitrate below 800000 within 30s")
        #expect(short != shipped && short.contains("fps above 25 within 20s") && short.contains("fps above 15 for 10s")
                && short.contains("above 2000000 within 30s") && short.contains("below 800000 within 30s")
                && short.contains("press link-cap 800k") && short.contains("abr throughput"))
        let file = directory.file("weak-signal-short.scenario")
        try Data(short.utf8).write(to: file)
        return file
    }

    @Test("the A/B report against nginx-rtmp: the weak signal with --abr off fails its frame-rate check where throughput passes, side by side with their network figures")
    func abReport() async throws {
        let nginx = try NginxRTMPServer()
        let directory = try TemporaryDirectory()
        let file = try Self.shortWeakSignal(in: directory)
        let run = try HeadlessRun([
            "demo", "--headless", "--report", "--server", nginx.url(stream: "ab"), "--compare-abr", "off,throughput", "--script", file.path,
        ] + Self.light, in: directory)
        let status = await run.peer.exitStatus(within: .seconds(240))
        let failed = run.events.events.filter { $0.kind == "expectation" && $0.details["met"] as? Bool == false }
        #expect(status == 1, "exit \(status): \(run.peer.standardError)\nfailed: \(failed.map(\.details))")
        let reports = run.events.events.filter { $0.kind == "report" }
        #expect(reports.map { $0.details["abr"] as? String } == ["off", "throughput"])
        let off = reports.first?.details ?? [:], throughput = reports.last?.details ?? [:]
        // The report writes a failure in capitals, as its table does.
        #expect((off["result"] as? String)?.lowercased() == "failed" && throughput["result"] as? String == "passed",
                "off: \(off)\nthroughput: \(throughput)\nunmet: \(failed.map(\.details))")
        // Off keeps the encoder at its 2500k ceiling: the queue overflows under the cap and the picture stops;
        // throughput retargets and drops nothing once it has converged.
        #expect((off["congestionDrops"] as? Int ?? 0) > 0, "off: \(off)")
        #expect(run.events.events.contains { $0.kind == "abr" && $0.details["reason"] as? String == "queue-delay" }, "throughput never stepped down")
        for details in [off, throughput] {
            #expect((details["underCap"] as? [[String: Any]])?.first?["cap"] as? Int == 800_000, "\(details)")
        }
        #expect(throughput["frozenAfterConvergingMs"] is Int && (throughput["longestGapAfterConvergingMs"] as? Int ?? .max) < 400, "\(throughput)")
    }

    @Test("a wrong expectation fails with exit 1, naming the file, line, expectation and what was seen")
    func wrongExpectationFails() async throws {
        let directory = try TemporaryDirectory()
        let file = directory.file("wrong.scenario")
        try Data("""
            scenario A call does not stop a tap-republish broadcast
            policy tap-republish
            expect publisher status is PUBLISHING within 10s
            press call
            expect publisher status is "AWAITING TAP" within 1s
            press decline
            """.utf8).write(to: file)
        let run = try HeadlessRun(["demo", "--headless", "--script", file.path] + Self.light, in: directory)
        let status = await run.peer.exitStatus(within: .seconds(60))
        #expect(status == 1)
        let message = run.peer.standardError
        #expect(message.contains("\(file.path):5: `expect publisher status is \"AWAITING TAP\" within 1s` did not hold — saw publisher status is PAUSED VIDEO"),
                "stderr: \(message)")
        #expect(message.split(separator: "\n").count == 1, "more than one line: \(message)")
        let failed = run.events.events.first { $0.kind == "expectation" && $0.details["met"] as? Bool == false }
        #expect(failed?.details["line"] as? Int == 5)
        // The steps after the failure did not run.
        #expect(!run.events.events.contains { $0.kind == "key" && $0.text == "key decline" })
    }

    @Test("a window expectation on the subscriber fails as soon as the link goes down under it (and says so), with exit 1")
    func windowExpectationFails() async throws {
        let directory = try TemporaryDirectory()
        let file = directory.file("elevator-frozen.scenario")
        try Data("""
            scenario The picture stops while the link is down
            expect subscriber shows video captured after the last press within 10s
            press link-down
            expect subscriber gap below 1s for 8s
            press link-up
            """.utf8).write(to: file)
        let run = try HeadlessRun(["demo", "--headless", "--script", file.path] + Self.light, in: directory)
        let status = await run.peer.exitStatus(within: .seconds(60))
        #expect(status == 1)
        #expect(run.peer.standardError.contains("\(file.path):4: `expect subscriber gap below 1s for 8s` did not hold — saw the subscriber went ")
                && run.peer.standardError.contains("s without video since the line started"),
                "stderr: \(run.peer.standardError)")
        let failed = run.events.events.first { $0.kind == "expectation" && $0.details["met"] as? Bool == false }
        // It broke as soon as the gap reached 1 s (seen once a second), not after waiting out the 8 s.
        #expect((failed?.details["afterMs"] as? Int ?? .max) < 4000, "\(String(describing: failed?.details))")
    }

    @Test("a malformed scenario or an unknown key is refused before anything runs, with file and line (exit 2)")
    func malformedScenario() async throws {
        let directory = try TemporaryDirectory()
        /// Writes `text` to `name` and plays it: refused with exit 2, `message(path)` on stderr, nothing run.
        func expectRefused(_ name: String, _ text: String, _ message: (String) -> String) throws -> URL {
            let file = directory.file(name)
            try Data(text.utf8).write(to: file)
            let result = try OnAirBinary.run(["demo", "--headless", "--script", file.path])
            #expect(result.status == 2)
            #expect(result.standardError.contains(message(file.path)), "stderr: \(result.standardError)")
            #expect(result.standardOutput.isEmpty, "something ran: \(result.standardOutput)")
            return file
        }
        let typo = try expectRefused("typo.scenario", "policy tap-republish\nwait 1s\npress cal\n") {
            "\($0):3: unknown command 'cal' for `press`; commands: call, siri"
        }

        // Issue 28 (10): a misspelt field is refused before anything runs, exit 2 — not exit 1 after the run.
        _ = try expectRefused("field.scenario", "policy tap-republish\nwait 1s\nexpect publisher staus is PUBLISHING\n") {
            "\($0):3: unknown publisher field 'staus'; the fields are"
        }

        let missing = try OnAirBinary.run(["demo", "--headless", "--script", directory.file("absent.scenario").path])
        #expect(missing.status == 2)
        #expect(missing.standardError.contains("--script \(directory.file("absent.scenario").path): no such file"), "\(missing.standardError)")

        _ = try expectRefused("bad-link.scenario", "scenario Weak\nabr throughput\nwait 1s\npress link-cap 9\n") {
            "\($0):4: `press link-cap 9`: '9' is not a rate between 8k and 10G bit/s"
        }

        let badModes = try OnAirBinary.run(["demo", "--headless", "--script", typo.path, "--compare-abr", "off,fast"])
        #expect(badModes.status == 2)
        #expect(badModes.standardError.contains("--compare-abr 'off,fast': 'fast' is not an ABR mode"), "stderr: \(badModes.standardError)")

        let reportAlone = try OnAirBinary.run(["demo", "--report"])
        #expect(reportAlone.status != 0)
        #expect(reportAlone.standardError.contains("--report compares scenario runs"))
    }

    @Test("in the console the scenario plays itself, then the report table is printed on the restored terminal")
    func consolePlaysScenario() async throws {
        let directory = try TemporaryDirectory()
        let file = directory.file("short.scenario")
        try Data("""
            scenario Short console run
            policy tap-republish
            expect publisher status is PUBLISHING within 10s
            wait 1s
            press call
            expect subscriber toast "Publish Background" within 3s
            wait 2s
            press decline
            expect publisher toast "Tap to Re-Publish!" within 2s
            press tap
            expect publisher status is PUBLISHING within 3s
            wait 1s
            """.utf8).write(to: file)
        let command = "\(OnAirBinary.url.path) demo --script \(file.path) --report \(Self.light.joined(separator: " ")); echo ONAIR-EXIT=$?; sleep 60"
        let tmux = try TmuxSession(command: command, directory: directory.url)
        let playing = try await tmux.waitForScreen(timeout: .seconds(20)) { $0.contains("scenario line") && $0.contains("PUBLISHING") }
        #expect(playing.matched, "the console never showed the scenario's steps:\n\(playing.screen)")
        let done = try await tmux.waitForScreen(timeout: .seconds(40)) { $0.contains("ONAIR-EXIT=") }
        #expect(done.screen.contains("ONAIR-EXIT=0"), "the scenario did not pass:\n\(done.screen)")
        #expect(done.screen.contains("Short console run") && done.screen.contains("tap-republish") && done.screen.contains("passed"),
                "no report table after the console:\n\(done.screen)")
        #expect(done.screen.contains("tap 0."), "no key → publishing time in the table:\n\(done.screen)")
    }
}

/// Runs python3-jsonschema (an implementation independent of OnAir) over a JSON Lines file: exit 0 and
/// "valid N lines" when every line validates, 1 with the first error otherwise.
enum SchemaValidator {
    static let script = """
        import json, sys
        import jsonschema
        schema = json.load(open(sys.argv[1]))
        jsonschema.Draft202012Validator.check_schema(schema)
        validator = jsonschema.Draft202012Validator(schema)
        count = 0
        for number, line in enumerate(open(sys.argv[2]), 1):
            event = json.loads(line)
            error = next(iter(validator.iter_errors(event)), None)
            if error is not None:
                print(f"line {number}: {error.message} at {list(error.absolute_path)}: {line.strip()[:300]}")
                sys.exit(1)
            count += 1
        print(f"valid {count} lines")
        """

    static func validate(_ file: URL, against schema: URL, in directory: TemporaryDirectory) async throws -> (status: Int32, output: String, error: String) {
        let scriptFile = directory.file("validate.py")
        try Data(script.utf8).write(to: scriptFile)
        // The PATH's python3 may be a private one without the Debian module; /usr/bin/python3 has it
        // (scripts/install-deps.sh installs python3-jsonschema).
        for python in ["python3", "/usr/bin/python3"] {
            let probe = try await PeerProcess.run(python, ["-c", "import jsonschema"], in: directory.url, timeout: .seconds(30))
            if probe.status == 0 {
                return try await PeerProcess.run(python, [scriptFile.path, schema.path, file.path], in: directory.url, timeout: .seconds(60))
            }
        }
        Issue.record("no python3 with the jsonschema module; scripts/install-deps.sh test installs python3-jsonschema")
        return (-1, "", "")
    }
}
