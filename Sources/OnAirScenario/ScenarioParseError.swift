/// Why a scenario file was refused, with the file and line to fix: `Scenarios/x.scenario:7: …`.
public struct ScenarioParseError: Error, Sendable, Equatable, CustomStringConvertible {
    public var source: String
    /// 1-based; 0 when the whole file is at fault (too large, not UTF-8, no steps).
    public var line: Int
    public var message: String

    public init(source: String, line: Int, message: String) {
        self.source = source
        self.line = line
        self.message = message
    }

    public var description: String {
        line > 0 ? "\(source):\(line): \(message)" : "\(source): \(message)"
    }
}
