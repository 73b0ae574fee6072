import OnAirScenario

/// libFuzzer's entry point: parse any bytes as a scenario file, then judge every expectation it holds
/// against an empty timeline. A trap (crash, overflow, out-of-bounds index) is a finding; so is a failure
/// that names no line of the input (other than the whole-file refusals) or spans several lines.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzScenarioParser(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = UnsafeBufferPointer(start: size > 0 ? data : nil, count: size)
    guard let text = String(validating: bytes, as: UTF8.self) else { return 0 }
    let lines = text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" }).count
    do {
        let scenario = try ScenarioParser.parse(text, source: "fuzz.scenario")
        let timeline = ScenarioTimeline()
        for expectation in scenario.expectations {
            precondition((1...lines).contains(expectation.line), "expectation on line \(expectation.line) of \(lines)")
            _ = timeline.verdict(for: expectation.condition.anchored(in: timeline), recording: nil)
        }
        _ = scenario.steps.map(\.text)
    } catch {
        precondition((0...lines).contains(error.line), "failure on line \(error.line) of \(lines)")
        precondition(!error.message.contains("\n"), "multi-line message")
    }
    return 0
}

@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
) -> CInt

/// SwiftPM points the program's `main` at `<module>_main`; hand control to libFuzzer's driver.
@_cdecl("FuzzScenarioParser_main")
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    var count = argc
    var arguments = argv
    return LLVMFuzzerRunDriver(&count, &arguments, fuzzScenarioParser)
}
