import Foundation
import OnAirCore
import OnAirScenario

/// A scenario file read and checked: parsed by ``ScenarioParser``, which resolves every `press` to the
/// command it stands for, so a typo fails before anything is published.
struct ScenarioFile: Sendable {
    let scenario: Scenario

    /// Reads `path`; a missing, unreadable or malformed file is a usage error (exit 2) naming the file and line.
    static func load(_ path: String) throws -> ScenarioFile {
        let data: Data
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw FrontEndExit(code: 2, message: "onair demo: --script \(path): no such file; give a scenario file (see Scenarios/README.md)")
        }
        guard !isDirectory.boolValue else {
            throw FrontEndExit(code: 2, message: "onair demo: --script \(path): is a directory; give a scenario file (see Scenarios/README.md)")
        }
        // A FIFO or a device would block the open or the read before anything starts (issue 29 item 7).
        let type = (try? FileManager.default.attributesOfItem(atPath: path)[.type]) as? FileAttributeType
        guard type == .typeRegular else {
            throw FrontEndExit(code: 2, message: "onair demo: --script \(path): is not a regular file (a FIFO or a device?); give a scenario file")
        }
        do {
            let handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: path))
            defer { try? handle.close() }
            data = try handle.read(upToCount: ScenarioParser.maximumBytes + 1) ?? Data()
        } catch {
            throw FrontEndExit(code: 2, message: "onair demo: --script \(path): cannot read it (permission denied?); give a readable scenario file")
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw FrontEndExit(code: 2, message: "onair demo: \(path) is not UTF-8 text; is it really a scenario file?")
        }
        return try parse(text, source: path)
    }

    static func parse(_ text: String, source: String) throws -> ScenarioFile {
        let scenario: Scenario
        do {
            scenario = try ScenarioParser.parse(text, source: source)
        } catch {
            throw FrontEndExit(code: 2, message: "onair demo: scenario \(error)")
        }
        return ScenarioFile(scenario: scenario)
    }
}
