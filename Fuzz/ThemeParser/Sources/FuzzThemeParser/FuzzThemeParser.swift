import FuzzDriver
import OnAirConsole

/// libFuzzer's entry point: parse any bytes as a theme file. A trap (crash, overflow, out-of-bounds index)
/// is a finding; so is a failure that does not name a line of the input.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzThemeParser(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = UnsafeBufferPointer(start: size > 0 ? data : nil, count: size)
    let lines = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).count
    do {
        let result = try ThemeParser().parse(bytes, file: "fuzz.theme", name: "fuzz")
        for warning in result.warnings { precondition((1...lines).contains(warning.line), "warning on line \(warning.line) of \(lines)") }
        _ = ThemeSwatch(result.theme).line(ansi: true)
    } catch {
        precondition((1...lines).contains(error.line), "failure on line \(error.line) of \(lines)")
        precondition(!error.message.contains("\n"), "multi-line message")
    }
    return 0
}

/// SwiftPM points the program's `main` at `<module>_main`; hand control to libFuzzer's driver.
@_cdecl("FuzzThemeParser_main")
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runLibFuzzer(argc, argv, fuzzThemeParser)
}
