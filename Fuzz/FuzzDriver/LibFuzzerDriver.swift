/// libFuzzer's entry point, linked in by `-sanitize=fuzzer` (docs/platform-notes.md, "Fuzzing with SwiftPM").
@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
) -> CInt

/// What libFuzzer calls with each input.
public typealias FuzzTarget = @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt

/// Hands control to libFuzzer's driver with the program's arguments. Each fuzz executable calls this from
/// its `@_cdecl("<module>_main")`, the symbol SwiftPM points the program's `main` at.
public func runLibFuzzer(
    _ argc: CInt,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?,
    _ target: FuzzTarget
) -> CInt {
    var count = argc
    var arguments = argv
    return LLVMFuzzerRunDriver(&count, &arguments, target)
}
